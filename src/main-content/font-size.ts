// The main-content form is an inert copy: it has no styles. Each copied element carries the font
// size the page computed for it, read while the form is built, so that the small-print rule
// (extract-cleanup.ts) can compare a block with the article's text. Removed before anything leaves
// the page.
const ATTRIBUTE = 'data-page-fetch-font-px';

/** Marks `copy` with the computed font size of `source`, the page's element it was copied from. */
export function recordFontSize(copy: Element, source: Element): void {
  const px = Number.parseFloat(getComputedStyle(source).fontSize);
  if (Number.isFinite(px)) copy.setAttribute(ATTRIBUTE, String(px));
}

/** The font size (px) of an element of the form: its own, else its nearest marked ancestor's; undefined when none is known. */
export function fontSizeOf(el: Element | null): number | undefined {
  const marked = el?.closest(`[${ATTRIBUTE}]`);
  const px = marked ? Number(marked.getAttribute(ATTRIBUTE)) : Number.NaN;
  return Number.isFinite(px) ? px : undefined;
}

/** Removes the marks from `root` and everything in it. */
export function clearFontSizes(root: Element): void {
  root.removeAttribute(ATTRIBUTE);
  for (const el of root.querySelectorAll(`[${ATTRIBUTE}]`)) el.removeAttribute(ATTRIBUTE);
}

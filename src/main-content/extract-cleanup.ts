// What an article extract still carries that is not the article: blocks of links (related stories,
// tag lists), "Read more: <headline>" cross-links, runs of teasers, a repeated headline, captions
// and credits (captions.ts), date lines and the readers' comments below it (dated-lines.ts), small
// print, and the headings left with nothing after them. Every rule reads the extract's own
// structure, text and rendered size (links, dates, clocks, a label's colon, font sizes), never a
// site's class names or words.
import { dropTrailingLabels } from './trailing-labels';
import { dropCaptions } from './captions';
import { dropCommentThreads, dropDateLines } from './dated-lines';
import { dropArticleHeader, dropRepeatedHeading, dropTrailingCard, dropTrailingHeadings } from './extract-headings';
import { HAS_MEDIA, headsBefore, holdsTitleLink, linkDensity, normalized, siblingRuns, visibleLength } from './extract-dom';
import { fontSizeOf } from './font-size';
import { wordCount } from './words';

/** A block inside the extract with this many links or more… */
const MIN_LINK_BLOCK_LINKS = 3;
/** …and mostly link text is navigation (related stories, "more from", tag lists), not content. */
const MAX_BLOCK_LINK_DENSITY = 0.6;

/** Removes link-dense blocks from the extract (outermost first), with the heading or label that names them. */
function dropLinkBlocks(root: Element): void {
  for (const block of root.querySelectorAll('ul, ol, nav, aside, section, div, p')) {
    if (!root.contains(block)) continue; // inside a block already removed
    if (block.querySelectorAll('a[href]').length < MIN_LINK_BLOCK_LINKS || linkDensity(block) <= MAX_BLOCK_LINK_DENSITY) continue;
    for (const el of [...headsBefore(block), block]) el.remove();
  }
}

/**
 * A cross-link's label: a few words and a colon, its full-width form included ("Read more:",
 * "Related:", "相关阅读："), or the guillemet or arrow some sites point with ("À lire aussi »").
 */
const CROSS_LINK_LABEL = /^([\p{L}\p{M}'’ -]+?) ?[:：»›→]$/u;
const MAX_LABEL_WORDS = 3;
/** A link of at least this many words names another story (a headline), not a source or a person. */
const MIN_HEADLINE_WORDS = 4;

/**
 * Removes cross-links to other stories: a paragraph that is a short label with a colon followed by
 * one link holding a headline, and nothing else ("Read more: <a>…</a>"); sites also set them as a
 * heading or a quotation ("### MIRA: <a>…</a>", "> **PUEDES VER:** <a>…</a>"). A label before a short
 * link (a source, a name, a place) is left: that is the article's own.
 */
function dropCrossLinks(root: Element): void {
  for (const block of root.querySelectorAll('p, div, blockquote, h2, h3, h4, h5, h6')) {
    if (!root.contains(block) || block.querySelector(HAS_MEDIA) !== null) continue;
    const links = block.querySelectorAll('a[href]');
    if (links.length !== 1) continue;
    const text = normalized(block);
    const headline = normalized(links[0]!);
    if (headline === '' || !text.endsWith(headline) || wordCount(headline) < MIN_HEADLINE_WORDS) continue;
    const label = text.slice(0, text.length - headline.length).trim();
    const labelWords = CROSS_LINK_LABEL.exec(label)?.[1];
    if (labelWords !== undefined && wordCount(labelWords) <= MAX_LABEL_WORDS) block.remove();
  }
}

/**
 * Teasers: at least this many siblings of one tag, each a short item under a headline link, or a
 * little longer under a heading that is one link (a related story's headline over its summary,
 * which leaves the link too little of the text for the first test).
 */
const MIN_TEASERS = 3;
/** …or this many under a heading or a label of their own ("Read on:" over two headlines). */
const MIN_NAMED_TEASERS = 2;
const MAX_TEASER_CHARS = 300;
const MIN_TEASER_LINK_DENSITY = 0.5;
const MAX_HEADLINED_TEASER_CHARS = 600;

/** Whether a heading in the item is one link and nothing else. */
const holdsHeadlineLink = (item: Element) =>
  [...item.querySelectorAll('h2, h3, h4, h5, h6')].some((heading) => {
    const links = heading.querySelectorAll('a[href]');
    const text = normalized(heading);
    return links.length === 1 && text !== '' && normalized(links[0]!) === text;
  });

function isTeaser(item: Element): boolean {
  const length = visibleLength(item);
  return (
    (length <= MAX_TEASER_CHARS && holdsTitleLink(item) && linkDensity(item) >= MIN_TEASER_LINK_DENSITY) ||
    (length <= MAX_HEADLINED_TEASER_CHARS && holdsHeadlineLink(item))
  );
}

/**
 * Teasers taken out leave at least this share of the extract: a run that holds most of its text is
 * the article itself (a listicle, each item under its linked name), as with the readers' posts.
 */
const MAX_TEASERS_SHARE = 0.5;

/**
 * Removes runs of teasers — siblings of one tag next to each other, each a short item under a
 * headline link ("More:" lists, related stories) — with the heading that names them. Their classes
 * may differ: a site's list of other columns had two of its seven links classed as entry titles.
 */
function dropTeasers(root: Element): void {
  const total = visibleLength(root);
  for (const parent of [root, ...root.querySelectorAll('*')]) {
    if (!root.contains(parent)) continue;
    for (const items of siblingRuns(parent)) {
      if (items.length < MIN_NAMED_TEASERS || !items.every(isTeaser)) continue;
      if (items.reduce((sum, item) => sum + visibleLength(item), 0) > MAX_TEASERS_SHARE * total) continue;
      const heads = headsBefore(items[0]!);
      if (items.length < MIN_TEASERS && heads.length === 0) continue;
      for (const el of [...heads, ...items]) el.remove();
    }
  }
}

/** Text set below this share of the size that carries most of the article's text is small print. */
const SMALL_PRINT_RATIO = 0.8;
/** Blocks the small-print rule removes… */
const SMALL_PRINT_BLOCKS = 'p, div, section, aside, header, footer';
/** …unless they hold code, a table or media, which sites often set smaller and a reader needs. */
const ANY_SIZE = `${HAS_MEDIA}, code, kbd, samp`;

/**
 * Characters of visible text (white space not counted) by font size, over the extract's paragraphs
 * (`inParagraph`) or all of its text: prose is what sets the article's size, not the glyphs of a
 * formula or the cells of a table.
 */
function textBySize(root: Element, inParagraph: boolean): Map<number, number> {
  const sizes = new Map<number, number>();
  const visit = (node: Node, counted: boolean) => {
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType === 1) visit(child, counted || (child as Element).localName === 'p');
      else if (child.nodeType === 3 && counted) {
        const chars = visibleLength(child);
        const size = fontSizeOf(child.parentElement);
        if (chars > 0 && size !== undefined) sizes.set(size, (sizes.get(size) ?? 0) + chars);
      }
    }
  };
  visit(root, !inParagraph);
  return sizes;
}

/** The font size that carries most of the article's prose; 0 when the extract has no text of known size. */
function articleFontSize(root: Element): number {
  let articleSize = 0;
  let most = 0;
  for (const inParagraph of [true, false]) {
    for (const [size, chars] of textBySize(root, inParagraph)) {
      if (chars > most) [articleSize, most] = [size, chars];
    }
    if (most > 0) return articleSize;
  }
  return 0;
}

/** What a subtree holds: visible text, text not set below `smallBelow`, code, tables or media. */
interface Holds {
  text: boolean;
  largerText: boolean;
  anySize: boolean;
}

/** The blocks under `node` whose text is all small print, found in one pass from the leaves up. */
function smallBlocks(node: Element, smallBelow: number, found: Set<Element>): Holds {
  const holds: Holds = { text: false, largerText: false, anySize: node.matches(ANY_SIZE) };
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType === 1) {
      const inner = smallBlocks(child as Element, smallBelow, found);
      holds.text ||= inner.text;
      holds.largerText ||= inner.largerText;
      holds.anySize ||= inner.anySize;
    } else if (child.nodeType === 3 && /\S/.test(child.nodeValue ?? '')) {
      holds.text = true;
      const size = fontSizeOf(node);
      // Text of no known size is not taken for small print.
      if (size === undefined || size >= smallBelow) holds.largerText = true;
    }
  }
  if (holds.text && !holds.largerText && !holds.anySize && node.matches(SMALL_PRINT_BLOCKS)) found.add(node);
  return holds;
}

/**
 * Removes small print: blocks whose text is all set well below the article's own size — a
 * company's boilerplate under a press release, comment rules, legal lines, a date line.
 */
function dropSmallPrint(root: Element): void {
  const articleSize = articleFontSize(root);
  if (articleSize === 0) return;
  const found = new Set<Element>();
  for (let child = root.firstElementChild; child !== null; child = child.nextElementSibling) {
    smallBlocks(child, articleSize * SMALL_PRINT_RATIO, found);
  }
  for (const block of found) block.remove();
}

/** Cleans the extract in place; `heading` is the title the extract is given. */
export function dropNonArticle(root: Element, heading: string | null): void {
  if (heading !== null) dropRepeatedHeading(root, heading);
  dropLinkBlocks(root);
  dropCrossLinks(root);
  dropTeasers(root);
  dropCaptions(root);
  dropCommentThreads(root);
  dropDateLines(root);
  dropSmallPrint(root);
  // Once bylines and date lines are gone, what stands above the article's first paragraph is its header.
  if (heading !== null) dropArticleHeader(root, heading);
  dropTrailingHeadings(root);
  dropTrailingCard(root);
  dropTrailingLabels(root);
}

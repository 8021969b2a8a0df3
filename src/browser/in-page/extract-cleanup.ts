// What an article extract still carries that is not the article: blocks of links (related stories,
// tag lists), figure captions, date lines, and the readers' comments below it. Every rule reads the
// extract's own structure and text (links, dates, clocks), never a site's class names or words.

/** A block inside the extract with this many links or more… */
const MIN_LINK_BLOCK_LINKS = 3;
/** …and mostly link text is navigation (related stories, "more from", tag lists), not content. */
const MAX_BLOCK_LINK_DENSITY = 0.6;

/** A date line is short: a date, maybe a clock and a few words ("Posted:", "Updated", a name). */
const MAX_DATE_LINE_CHARS = 90;
const MAX_DATE_LINE_WORDS = 14;
/** Without a clock, a date line is the date alone ("October 06, 2018"), not a line about dates. */
const MAX_BARE_DATE_WORDS = 4;
const YEAR = /\b(?:19|20)\d\d\b/;
const CLOCK = /\b\d{1,2}:\d{2}\b/;
// 2018-02-24, 13.11.2019, "Nov 19", "19 November" (any script's month names).
const DAY_AND_MONTH = /\b\d{1,4}[./-]\d{1,2}[./-]\d{1,4}\b|\p{L}{3,}\.?\s+\d{1,2}\b|\b\d{1,2}\.?\s+\p{L}{3,}/u;
const WORDS = /[\p{L}\p{N}_]+/gu;

/** Readers' posts: at least this many, each stamped with a date and a clock… */
const MIN_THREAD_POSTS = 3;
/** …and, taken out, no more than this share of the extract: a page made of stamped posts is its content. */
const MAX_THREAD_SHARE = 0.5;
/** The poster's name before a stamp that stands alone in the thread (`<b>Name</b> <i>stamp</i>`). */
const MAX_POSTER_CHARS = 40;

/** Where a date line is the content itself: quotations (an embedded post's date), tables, lists, code. */
const CONTENT_CONTEXT = 'blockquote, table, li, pre, code, figure';
const HAS_MEDIA = 'img, picture, video, table, pre';

/** Characters of text, white space not counted: the markup's indentation would dilute the link text. */
const visibleLength = (node: Node) => (node.textContent ?? '').replace(/\s+/g, '').length;

/** The share of the element's text that is link text (1 when it has no text). */
export function linkDensity(root: Element): number {
  const all = visibleLength(root);
  if (all === 0) return 1;
  let linked = 0;
  for (const link of root.querySelectorAll('a')) linked += visibleLength(link);
  return linked / all;
}

/** Elements a line of text runs through; a link is part of a sentence when text runs beside it. */
const INLINE = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'cite',
  'code',
  'em',
  'i',
  'mark',
  'q',
  's',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'u',
]);

/**
 * Whether the item holds a link that stands as a line of its own — an item's headline or name
 * (`<h3><a>…</a></h3>`, a card's link) — rather than words of a sentence: an article's paragraphs,
 * each in a wrapper of one kind, often hold a link each too (two news articles the rule took for
 * lists before this, with links 4 % and 13 % of their text).
 */
export function holdsTitleLink(item: Element): boolean {
  for (const link of item.querySelectorAll('a[href]')) {
    if ((link.textContent ?? '').trim() === '') continue;
    let line: Element = link;
    while (line !== item && line.parentElement !== null && INLINE.has(line.parentElement.localName)) line = line.parentElement;
    const besides = line.parentElement === null || line === item ? [] : [...line.parentElement.childNodes];
    if (!besides.some((node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '')) return true;
  }
  return false;
}

/** A publication or posting date: "Posted: Fri 6:45 PM, Feb 16, 2018", "Nov. 20, 2019 6:02 AM EST", "October 06, 2018". */
export function isDateLine(text: string): boolean {
  const line = text.trim();
  if (line.length === 0 || line.length > MAX_DATE_LINE_CHARS || !YEAR.test(line)) return false;
  const words = line.match(WORDS)?.length ?? 0;
  if (words > MAX_DATE_LINE_WORDS) return false;
  return CLOCK.test(line) || (words <= MAX_BARE_DATE_WORDS && DAY_AND_MONTH.test(line));
}

/** A date line that stamps a post: with its clock. */
const isStamp = (text: string) => isDateLine(text) && CLOCK.test(text);

function inContentContext(el: Element, root: Element): boolean {
  const context = el.closest(CONTENT_CONTEXT);
  return context !== null && root.contains(context);
}

/** Removes link-dense blocks from the extract (outermost first). */
function dropLinkBlocks(root: Element): void {
  for (const block of root.querySelectorAll('ul, ol, nav, aside, section, div, p')) {
    if (!root.contains(block)) continue; // inside a block already removed
    if (block.querySelectorAll('a[href]').length >= MIN_LINK_BLOCK_LINKS && linkDensity(block) > MAX_BLOCK_LINK_DENSITY) block.remove();
  }
}

/**
 * Removes date lines: a block that is mostly a <time>, and any element whose whole text is a date
 * line (outermost first), unless it holds media or stands where dates are content. A date inside a
 * sentence stays.
 */
function dropDateLines(root: Element): void {
  for (const time of root.querySelectorAll('time')) {
    const block = time.parentElement;
    if (block === null || block === root || !root.contains(block)) continue;
    if ((time.textContent?.length ?? 0) >= 0.6 * (block.textContent?.trim().length ?? 0)) block.remove();
  }
  const short = shortElements(root, MAX_DATE_LINE_CHARS);
  for (const el of root.querySelectorAll('*')) {
    if (!short.has(el) || !root.contains(el) || el.querySelector(HAS_MEDIA) !== null || inContentContext(el, root)) continue;
    if (isDateLine(el.textContent ?? '')) el.remove();
  }
}

/**
 * The elements with at most `maxChars` of text, found in one pass from the leaves up (reverse
 * document order meets children before their parent), so that no element's text is built twice
 * however deep the extract nests.
 */
function shortElements(root: Element, maxChars: number): Set<Element> {
  const lengths = new Map<Element, number>();
  const all = root.querySelectorAll('*');
  for (let i = all.length - 1; i >= 0; i--) {
    const el = all[i]!;
    let length = 0;
    for (let child = el.firstChild; child !== null; child = child.nextSibling) {
      length +=
        child.nodeType === Node.ELEMENT_NODE
          ? (lengths.get(child as Element) ?? 0)
          : child.nodeType === Node.TEXT_NODE
            ? (child as Text).length
            : 0;
    }
    lengths.set(el, length);
  }
  return new Set([...lengths].filter(([, length]) => length <= maxChars).map(([el]) => el));
}

/** Each stamp's branch under every ancestor up to the root: the ancestors under which stamps stand apart. */
function stampBranches(root: Element): Map<Element, Set<Element>> {
  const branches = new Map<Element, Set<Element>>();
  for (const el of root.querySelectorAll('*')) {
    if (el.childElementCount > 0 || inContentContext(el, root) || !isStamp(el.textContent ?? '')) continue;
    for (let child: Element = el, parent = el.parentElement; parent !== null; child = parent, parent = parent.parentElement) {
      const set = branches.get(parent) ?? new Set<Element>();
      branches.set(parent, set);
      set.add(child);
      if (parent === root) break;
    }
  }
  return branches;
}

/** A rule or a short heading: what names the part of the page that follows it. */
const isSectionHead = (el: Element) =>
  el.localName === 'hr' || (/^h[1-6]$/.test(el.localName) && (el.textContent?.trim().length ?? 0) <= MAX_POSTER_CHARS);

/**
 * Removes the readers' comments that follow an article in the same container: under one element,
 * at least MIN_THREAD_POSTS children each holding a posting stamp (date and clock). The thread runs
 * from the earliest of them that still has MIN_THREAD_POSTS from it on and leaves the extract at
 * least 1 − MAX_THREAD_SHARE of its text (a stamped line above the article, its own date, starts
 * none), with the poster's name just before it and its heading, to the container's end.
 */
function dropCommentThreads(root: Element): void {
  const total = root.textContent?.length ?? 0;
  for (const [container, posts] of stampBranches(root)) {
    if (posts.size < MIN_THREAD_POSTS || !root.contains(container)) continue;
    const stamped = [...container.children].filter((child) => posts.has(child));
    for (let k = 0; k + MIN_THREAD_POSTS <= stamped.length; k++) {
      const thread = threadFrom(stamped[k]!);
      const length = thread.reduce((sum, node) => sum + (node.textContent?.length ?? 0), 0);
      if (length > MAX_THREAD_SHARE * total) continue;
      for (const node of thread) container.removeChild(node);
      break;
    }
  }
}

/** The nodes from a thread's first post, with its poster's name and the thread's heading, to the container's end. */
function threadFrom(post: Element): Node[] {
  let first = post;
  const poster = post.previousElementSibling;
  if (poster !== null && (poster.textContent?.trim().length ?? 0) <= MAX_POSTER_CHARS && poster.querySelector(HAS_MEDIA) === null)
    first = poster;
  // The thread's own heading ("Comments", "Reviews") and rules go with it.
  for (let before = first.previousElementSibling; before !== null && isSectionHead(before); before = before.previousElementSibling)
    first = before;
  const thread: Node[] = [];
  for (let node: Node | null = first; node !== null; node = node.nextSibling) thread.push(node);
  return thread;
}

/** Text kept beside a picture in one small wrapper is its caption or credit, not the article's text. */
const MAX_CAPTION_CHARS = 150;

const hasText = (node: Node) => (node.textContent ?? '').trim() !== '';

/**
 * Removes captions and credits: the text that shares a small wrapper with one picture, in elements
 * of its own (`<div><picture/><span>caption</span></div>`, a figure's credit line). Text written
 * beside the picture in the same run (an inline icon in a sentence) stays, and so does a wrapper with
 * more text than a caption has.
 */
function dropImageCaptions(root: Element): void {
  for (const image of root.querySelectorAll('img, picture, video')) {
    // A <picture> stands for the <img> inside it.
    if (!root.contains(image) || (image.localName === 'img' && image.closest('picture') !== null)) continue;
    const path: Element[] = [image];
    let wrapper = image.parentElement;
    while (wrapper !== null && wrapper !== root && !hasText(wrapper)) {
      path.push(wrapper);
      wrapper = wrapper.parentElement;
    }
    if (wrapper === null || wrapper === root || !root.contains(wrapper)) continue;
    if ((wrapper.textContent ?? '').trim().length > MAX_CAPTION_CHARS || wrapper.querySelectorAll('img, video').length > 1) continue;
    if (inContentContext(wrapper, root) && wrapper.closest('figure') === null) continue;
    const onPath = new Set<Node>(path);
    const besides = [...wrapper.childNodes].filter((node) => !onPath.has(node) && hasText(node));
    if (besides.some((node) => node.nodeType === Node.TEXT_NODE)) continue;
    for (const node of besides) wrapper.removeChild(node);
  }
}

/** Teasers: at least this many siblings of one kind, each a short item under a headline link. */
const MIN_TEASERS = 3;
const MAX_TEASER_CHARS = 300;
const MIN_TEASER_LINK_DENSITY = 0.5;

/** The element's children grouped by kind: tag and class (items of a list, cards, posts). */
export function siblingGroups(parent: Element): Element[][] {
  const groups = new Map<string, Element[]>();
  for (const child of parent.children) {
    const kind = `${child.localName}.${child.getAttribute('class') ?? ''}`;
    const group = groups.get(kind);
    if (group === undefined) groups.set(kind, [child]);
    else group.push(child);
  }
  return [...groups.values()];
}

/** The element's children in runs of one kind, next to each other. */
function siblingRuns(parent: Element): Element[][] {
  const runs: Element[][] = [];
  let kind = '';
  for (const child of parent.children) {
    const childKind = `${child.localName}.${child.getAttribute('class') ?? ''}`;
    if (childKind === kind) runs.at(-1)!.push(child);
    else runs.push([child]);
    kind = childKind;
  }
  return runs;
}

const isTeaser = (item: Element) =>
  visibleLength(item) <= MAX_TEASER_CHARS && holdsTitleLink(item) && linkDensity(item) >= MIN_TEASER_LINK_DENSITY;

/**
 * Removes runs of teasers — siblings of one kind next to each other, each a short item under a
 * headline link ("More:" lists, related stories) — with the heading that names them.
 */
function dropTeasers(root: Element): void {
  for (const parent of [root, ...root.querySelectorAll('*')]) {
    if (!root.contains(parent)) continue;
    for (const items of siblingRuns(parent)) {
      if (items.length < MIN_TEASERS || !items.every(isTeaser)) continue;
      const heads: Element[] = [];
      for (let before = items[0]!.previousElementSibling; before !== null && isSectionHead(before); before = before.previousElementSibling)
        heads.push(before);
      for (const el of [...heads, ...items]) el.remove();
    }
  }
}

/** Removes a block that repeats the heading (a second headline, a breadcrumb ending in it). */
function dropRepeatedHeading(root: Element, heading: string): void {
  const title = heading.replace(/\s+/g, '');
  if (title === '') return;
  for (const block of root.querySelectorAll('h1, h2, h3, p, div, nav, ol, ul')) {
    if (!root.contains(block)) continue;
    const text = (block.textContent ?? '').replace(/\s+/g, '');
    if (text.includes(title) && text.length <= title.length + MAX_POSTER_CHARS && block.querySelector(HAS_MEDIA) === null) block.remove();
  }
}

/** Cleans the extract in place; `heading` is the title the extract is given. */
export function dropNonArticle(root: Element, heading: string | null): void {
  if (heading !== null) dropRepeatedHeading(root, heading);
  dropLinkBlocks(root);
  dropTeasers(root);
  for (const caption of root.querySelectorAll('figcaption')) caption.remove();
  dropImageCaptions(root);
  dropCommentThreads(root);
  dropDateLines(root);
}

// A thread of posts: a question and its answers, a forum topic and its replies. Readability scores
// blocks of prose and keeps the best one, so on a thread it keeps one post (the question, or the
// longest answer) and cuts the rest, which is most of the content. The posts of a thread are made
// by one template: every post's body is an element of the same tag and classes. So where the block
// Readability picked is one of several elements of its kind on the page, and they read as posts
// (each holds text, few carry a heading of the page's top levels, together they are text rather
// than links), the page's content is all of them, in the page's order.
import { hasVisibleText, kindOf, linkDensity } from './extract-dom';

/** At least this many blocks of the picked block's kind make a series (one more post than the pick). */
const MIN_SERIES = 2;
/** Posts are text: blocks of the kind whose text is mostly link text are teasers or menus, not posts. */
const MAX_SERIES_LINK_DENSITY = 0.5;
/**
 * A page's sections are headed, its posts are not: where this share of the blocks or more hold a
 * heading of the page's top three levels, they are the sections of a page built of one layout block
 * (a `container`, a `module`, a grid column), not posts. An answer may carry a heading of its own,
 * so the bound is a share.
 */
export const MAX_HEADED_SHARE = 0.2;

/** Readability's own wrappers around its pick (`readability-content`, `readability-page-1`). */
const isReadabilityWrapper = (el: Element) => el.id.startsWith('readability-');

/**
 * The block Readability picked, in its article: the first element with a class down the article's
 * single-child chain; null when the article is several blocks (Readability joined siblings) or the
 * chain holds no classed element.
 */
function pickedBlock(content: Element): Element | null {
  let el = content;
  while (el.children.length === 1 && (el === content || isReadabilityWrapper(el) || el.getAttribute('class') === null)) {
    el = el.children[0]!;
    if (!isReadabilityWrapper(el) && el.getAttribute('class')) return el;
  }
  return null;
}

/** The outermost elements of `form` with the tag and class attribute of `block`, in document order. */
function blocksOfKind(form: Document, block: Element): Element[] {
  const first = block.getAttribute('class')!.trim().split(/\s+/)[0];
  if (!first) return [];
  const kind = kindOf(block);
  const found: Element[] = [];
  for (const el of form.getElementsByClassName(first)) {
    if (kindOf(el) !== kind) continue;
    // In document order, an element inside an earlier block is inside the last one found.
    if (found.at(-1)?.contains(el)) continue;
    found.push(el);
  }
  return found;
}

/** Whether blocks of one kind read as posts: each holds text, and few carry one of the page's top headings. */
function readAsPosts(blocks: Element[]): boolean {
  if (!blocks.every(hasVisibleText)) return false;
  const headed = blocks.filter((block) => block.querySelector('h1, h2, h3') !== null).length;
  return headed < MAX_HEADED_SHARE * blocks.length;
}

/**
 * The thread Readability's article is one post of: a new element of the reader form holding a copy
 * of every block of the picked block's kind, in the page's order; null when the page has fewer than
 * MIN_SERIES of them, or they do not read as posts.
 */
export function seriesOf(form: Document, content: Element): Element | null {
  const block = pickedBlock(content);
  if (block === null) return null;
  const posts = blocksOfKind(form, block);
  if (posts.length < MIN_SERIES || !readAsPosts(posts)) return null;
  const series = form.createElement('div');
  for (const post of posts) series.append(post.cloneNode(true));
  return linkDensity(series) > MAX_SERIES_LINK_DENSITY ? null : series;
}

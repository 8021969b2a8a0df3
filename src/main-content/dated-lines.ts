// Date lines and readers' comment threads in a main-content extract, told by their text: a year
// with a clock, or a date standing alone ("Posted: Fri 6:45 PM, Feb 16, 2018", "October 06, 2018");
// posts are siblings stamped with date and clock. No site's words or class names.
import { isDateLine, isStamp, MAX_DATE_LINE_CHARS } from './date-line';
import {
  HAS_MEDIA,
  headsBefore,
  inContentContext,
  lineLength,
  MAX_NAME_CHARS,
  normalized,
  shortElements,
  visibleLength,
} from './extract-dom';

/** Readers' posts: at least this many, each stamped with a date and a clock… */
const MIN_THREAD_POSTS = 3;
/** …and, taken out, no more than this share of the extract: a page made of stamped posts is its content. */
const MAX_THREAD_SHARE = 0.5;

/** Whether a date line in `el` may go: it holds no media and stands nowhere dates are content (a table's cell, a list, a quotation). */
const mayDrop = (el: Element, root: Element) => el.querySelector(HAS_MEDIA) === null && !inContentContext(el, root);

/**
 * Removes date lines: a block that is mostly a <time>, and any element whose whole text is a date
 * line (outermost first), unless it holds media or stands where dates are content (a schedule's
 * cells, a timeline's items, an embedded post's date). A date inside a sentence stays.
 */
export function dropDateLines(root: Element): void {
  for (const time of root.querySelectorAll('time')) {
    const block = time.parentElement;
    if (block === null || block === root || !root.contains(block) || !mayDrop(block, root)) continue;
    if (visibleLength(time) >= 0.6 * visibleLength(block)) block.remove();
  }
  const short = shortElements(root, MAX_DATE_LINE_CHARS);
  for (const el of root.querySelectorAll('*')) {
    if (!short.has(el) || !root.contains(el) || !mayDrop(el, root)) continue;
    if (isDateLine(normalized(el))) el.remove();
  }
}

/** Each stamp's branch under every ancestor up to the root: the ancestors under which stamps stand apart. */
function stampBranches(root: Element): Map<Element, Set<Element>> {
  const branches = new Map<Element, Set<Element>>();
  for (const el of root.querySelectorAll('*')) {
    if (el.childElementCount > 0 || inContentContext(el, root) || !isStamp(normalized(el))) continue;
    for (let child: Element = el, parent = el.parentElement; parent !== null; child = parent, parent = parent.parentElement) {
      const set = branches.get(parent) ?? new Set<Element>();
      branches.set(parent, set);
      set.add(child);
      if (parent === root) break;
    }
  }
  return branches;
}

/**
 * Removes the readers' comments that follow an article in the same container: under one element,
 * at least MIN_THREAD_POSTS children each holding a posting stamp (date and clock). The thread runs
 * from the earliest of them that still has MIN_THREAD_POSTS from it on and leaves the extract at
 * least 1 − MAX_THREAD_SHARE of its text (a stamped line above the article, its own date, starts
 * none), with the poster's name just before it and its heading, to the container's end.
 */
export function dropCommentThreads(root: Element): void {
  const total = visibleLength(root);
  for (const [container, posts] of stampBranches(root)) {
    if (posts.size < MIN_THREAD_POSTS || !root.contains(container)) continue;
    const stamped = [...container.children].filter((child) => posts.has(child));
    for (let k = 0; k + MIN_THREAD_POSTS <= stamped.length; k++) {
      const thread = threadFrom(stamped[k]!);
      const length = thread.reduce((sum, node) => sum + visibleLength(node), 0);
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
  if (poster !== null && lineLength(poster) <= MAX_NAME_CHARS && poster.querySelector(HAS_MEDIA) === null) first = poster;
  // The thread's own heading ("Comments", "Reviews") and rules go with it.
  first = headsBefore(first).at(-1) ?? first;
  const thread: Node[] = [];
  for (let node: Node | null = first; node !== null; node = node.nextSibling) thread.push(node);
  return thread;
}

// Reads the loaded page in the form the caller asked for, by running the in-page script
// (in-page/page-script.ts, bundled per kind of read into build/page-script-*.js) in an isolated
// world the page's scripts cannot tamper with: the DOM with its shadow roots as HTML, or the
// markdown of what a reader sees, made in the page. Bounded in size and time: an oversized result
// is refused in the page, before it is shipped over CDP; a page whose scripts never yield is given
// up on at the read's bound, which is the request's own (readBoundMs: a slow or busy machine reads
// late, never answers 504 for real work); a page that navigates itself while being read is read
// again on its new document, as often as it takes within the bound (a page that refreshes itself at
// once, forever, has a document to read between two of its navigations).
import type { Frame, Page } from '@cloudflare/puppeteer';
import HTML_SCRIPT from '../../../build/page-script-html.js?raw';
import MAIN_CONTENT_SCRIPT from '../../../build/page-script-main-content.js?raw';
import MARKDOWN_SCRIPT from '../../../build/page-script-markdown.js?raw';
import SECOND_OPINION_SCRIPT from '../../../build/page-script-second-opinion.js?raw';
import VIEWS_SCRIPT from '../../../build/page-script-views.js?raw';
import { contentTooLarge } from '../../errors.js';
import { utf8Length } from '../../shared/utf8.js';
import { callInWorld, callInWorldSliced, inPageFunction, openWorld, type World } from './isolated-world.js';
import type { PageMetadata } from '../../shared/metadata.js';
import type { WallSignals } from '../../blocked/verdict.js';
import type { ContentMode, PageReply, PageRequest, PageViews, PartSelection, PortableTree, ViewRequest } from '../../in-page/protocol.js';
import { withinReadBound } from './read-bound.js';
import { registerChildFrames } from './remote-frames.js';
import type { Timers } from '../timers.js';

/**
 * `html`: the DOM, shadow roots as declarative shadow DOM; `markdown`: what a person sees, as
 * markdown (of its main content when asked); `main-html`: the main content's HTML in a minimal
 * document, else the DOM as `html` reads it.
 */
export type SerializeMode = 'html' | 'markdown' | 'main-html';

/** Iframe documents inlined in the reader form at most (same-origin per document, cross-origin per page), and how deeply nested. */
export const MAX_FRAMES = 50;
export const MAX_FRAME_DEPTH = 3;

/**
 * How long the page may take to hand over its DOM: the longest the request itself accepts for one
 * phase, its main document's bound (NAVIGATION_TIMEOUT_MS) or its waiting budget (wait_ms). Only a
 * page whose scripts never yield (or a renderer that never answers) reaches it; real work that a
 * slow machine makes long (a million nodes, a renderer running out of memory before it dies) ends
 * inside it. Not a constant: a bound tuned on a fast machine answers 504 on a slow one.
 */
export function readBoundMs(budget: { navigationTimeoutMs: number; waitMs: number }): number {
  return Math.max(budget.navigationTimeoutMs, budget.waitMs);
}

/**
 * The page compiles the function it is sent on every read: each kind of read sends only the code it
 * runs (the html read none of the serializer's). A read that waits for its frames is finished by the
 * same kind of script.
 */
const PAGE_FUNCTIONS = {
  html: inPageFunction(HTML_SCRIPT),
  markdown: inPageFunction(MARKDOWN_SCRIPT),
  mainContent: inPageFunction(MAIN_CONTENT_SCRIPT),
  views: inPageFunction(VIEWS_SCRIPT),
};
/** The second extractor (main-content/second-opinion.ts): sent only to a read whose extract is questioned. */
const SECOND_EXTRACTOR_FUNCTION = inPageFunction(SECOND_OPINION_SCRIPT);
function pageFunctionFor(mode: SerializeMode | 'frame', mainContent: boolean, views: ViewRequest | undefined): string {
  // Links and images need the main content found (their regions), on a DOM; a frame's reader form is
  // grafted into that DOM, its images' sizes marked. Only these reads carry that code.
  if (views !== undefined) return PAGE_FUNCTIONS.views;
  if (mode === 'html') return PAGE_FUNCTIONS.html;
  if (mode === 'main-html' || (mode === 'markdown' && mainContent)) return PAGE_FUNCTIONS.mainContent;
  return PAGE_FUNCTIONS.markdown;
}

/**
 * Cross-origin frames are read until this share of the read's bound has passed; a frame not read by
 * then is left out, and the rest of the bound is the page's, to put its frames in and answer. Shared
 * by all the frames of a read: a frame that never answers costs that much once, not per frame.
 */
export const FRAME_READ_SHARE = 0.5;

interface ReadContext {
  maxChars: number;
  /** Only the main content (markdown reads). */
  mainContent: boolean;
  /** Bring the page's metadata with the content (reads of the whole page only, never of a frame). */
  metadata: boolean;
  /** The parts of the page to read (reads of the whole page only: frames inside a kept part come whole). */
  selection?: PartSelection;
  /** The links and images to gather with the content. */
  views?: ViewRequest;
  /** Cross-origin frames that may still be read, for the whole page. */
  framesLeft: { count: number };
  /** When frames stop being read (ms since the epoch). */
  framesDeadline: number;
  timers: Timers;
}

/**
 * A read's reply comes in slices: a page's content may be larger than one CDP message may be. A read
 * whose extract is questioned asks for the second extractor: its script runs in the same world, and
 * the read resumes where it stopped.
 */
async function callPage(world: World, script: string, request: PageRequest): Promise<PageReply> {
  const reply = (await callInWorldSliced(world, script, request)) as PageReply;
  if (reply.kind !== 'second-extractor-needed') return reply;
  await callInWorld(world, SECOND_EXTRACTOR_FUNCTION, null);
  return (await callInWorldSliced(world, script, { mode: 'resume' })) as PageReply;
}

function isCrossOrigin(child: Frame, parent: Frame): boolean {
  try {
    const url = new URL(child.url());
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin !== new URL(parent.url()).origin;
  } catch {
    return false;
  }
}

/** One read of a frame. */
async function readFrame(frame: Frame, mode: SerializeMode | 'frame', depth: number, context: ReadContext): Promise<PageReply> {
  const world = await openWorld(frame);
  const { session, executionContextId } = world;
  const { maxChars } = context;
  const views = context.views === undefined ? {} : { views: context.views };
  const flags =
    mode === 'frame'
      ? views
      : {
          ...(context.metadata ? { metadata: true } : {}),
          ...(context.selection === undefined ? {} : { selection: context.selection }),
          ...views,
        };
  const script = pageFunctionFor(mode, context.mainContent, context.views);
  // The html of the DOM as it stands needs no frames read, its links and images do.
  if (mode === 'html' && context.views === undefined) return callPage(world, script, { mode, maxChars, ...flags });
  const maxFrameDepth = MAX_FRAME_DEPTH - depth;
  const crossOrigin = maxFrameDepth > 1 ? frame.childFrames().filter((child) => isCrossOrigin(child, frame)) : [];
  const children = await registerChildFrames(session, executionContextId, crossOrigin, context.framesLeft.count);
  const bounds = { maxChars, maxFrames: MAX_FRAMES, maxFrameDepth };
  const reply = await callPage(
    world,
    script,
    mode === 'markdown' ? { mode, mainContent: context.mainContent, ...bounds, ...flags } : { mode, ...bounds, ...flags },
  );
  if (reply.kind !== 'frames-needed') return reply;
  const trees: Record<string, PortableTree | null> = {};
  for (const key of reply.keys) {
    const child = children.get(key);
    trees[key] = child === undefined ? null : await readRemoteFrame(child, depth + 1, context);
  }
  return callPage(world, script, { mode: 'graft', trees });
}

/** A cross-origin frame's reader form, or null when it cannot be read in time or at all (never an error). */
async function readRemoteFrame(frame: Frame, depth: number, context: ReadContext): Promise<PortableTree | null> {
  if (context.framesLeft.count <= 0) return null;
  context.framesLeft.count--;
  try {
    const reply = await context.timers.within(context.framesDeadline, readFrame(frame, 'frame', depth, context));
    return reply !== 'timeout' && reply.kind === 'frame' ? reply.tree : null;
  } catch {
    return null;
  }
}

/** The text of a finished read of the whole page, whether it is the main content, and the page's metadata when asked. */
function contentOf(reply: PageReply, maxContentBytes: number): PageRead {
  if (reply.kind === 'too-large') throw contentTooLarge(maxContentBytes);
  if (reply.kind !== 'html' && reply.kind !== 'markdown') throw new Error(`the page answered a read with ${reply.kind}`);
  const content = reply.kind === 'html' ? reply.html : reply.markdown;
  if (utf8Length(content) > maxContentBytes) throw contentTooLarge(maxContentBytes);
  return {
    content,
    ...(reply.contentMode === undefined ? {} : { contentMode: reply.contentMode }),
    ...(reply.metadata === undefined ? {} : { metadata: reply.metadata }),
    ...(reply.selectorMatches === undefined ? {} : { selectorMatches: reply.selectorMatches }),
    ...(reply.views === undefined ? {} : { views: reply.views }),
    ...(reply.wallSignals === undefined ? {} : { wallSignals: reply.wallSignals }),
  };
}

export interface PageRead {
  content: string;
  /** When the main content was asked for: whether this is it, or the whole page. */
  contentMode?: ContentMode;
  /** When asked for: the metadata of the same document. */
  metadata?: PageMetadata;
  /** With include selectors: how many elements they matched. */
  selectorMatches?: number;
  /** The links and images asked for, gathered by the same read. */
  views?: PageViews;
  /** What the page shows of a bot wall, when it shows a wall's marker (in-page/wall-signals.ts). */
  wallSignals?: WallSignals;
}

export interface ReadOptions {
  /** Read the metadata too. */
  metadata?: boolean;
  /** Only these parts of the page. */
  selection?: PartSelection;
  /** Markdown of the main content only (a `markdown` read). */
  mainContent?: boolean;
  /** Gather the page's links and images too. */
  views?: ViewRequest;
}

/**
 * The page in the given form (html with its doctype), and its metadata when asked.
 * @throws ApiError content_too_large over `maxContentBytes`, target_timeout when the page does not
 * yield within `boundMs` (readBoundMs).
 */
export async function serializePage(
  page: Page,
  mode: SerializeMode,
  maxContentBytes: number,
  read: { timers: Timers; boundMs: number },
  options: ReadOptions = {},
): Promise<PageRead> {
  const { timers, boundMs } = read;
  const framesDeadline = Date.now() + boundMs * FRAME_READ_SHARE;
  const context = () => ({
    maxChars: maxContentBytes,
    mainContent: options.mainContent === true,
    metadata: options.metadata === true,
    ...(options.selection === undefined ? {} : { selection: options.selection }),
    ...(options.views === undefined ? {} : { views: options.views }),
    framesLeft: { count: MAX_FRAMES },
    framesDeadline,
    timers,
  });
  // The page may navigate itself between our wait and this read: the new document is read.
  return withinReadBound(
    async () => contentOf(await readFrame(page.mainFrame(), mode, 0, context()), maxContentBytes),
    read,
    'The page stopped responding while its content was read (a script may never yield).',
  );
}

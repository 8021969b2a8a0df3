// The script the Durable Object runs in the page (src/browser/read/serialize.ts), bundled into one
// function body per kind of read by scripts/build-page-script.mjs (entries in ./scripts). It runs in
// an isolated world: its own globals and prototypes, which the page's scripts cannot redefine, over
// the page's real DOM. Markdown is made here, where the DOM lives, by the same serializer the
// Worker's tests run on linkedom (src/markdown); only the result crosses CDP.
//
// The page compiles the whole script on every read (each read is a new world, most in a new renderer
// process), so each kind of read gets only the code it runs: the reader form and the serializer come
// in as parts, main-content extraction as another.
//
// A document holding cross-origin frames is read in two calls: the first builds the reader form and
// names the frames it needs; the caller reads those (each in its own world, recursively) and the
// second call grafts them in and finishes. The form waits in this world's global in between.
import type { documentToMarkdown } from '../markdown/convert';
import type { domBuilder } from './dom-form';
import { htmlForm } from './html-form';
import type { detachTree, LightDocument, LightNode, lightBuilder } from './light-tree';
import type { MainExtract, mainContentOf, ourExtract, settledExtract } from '../main-content/index';
import type { Extractor } from '../main-content/second-opinion';
import { pageMetadata } from './metadata';
import type { GatheredViews, gatherViews, markMainContent, markMainRegions, withImageSizes } from './page-views';
import { encodeChildren, graft } from './portable-tree';
import { type PageReply, type PageRequest, type PortableTree, SECOND_EXTRACTOR_GLOBAL, type ViewRequest } from './protocol';
import type { FormBuilder, ReaderForm, readerForm } from './reader-form';
import { selectedHtml } from './selected-html';
import { type SelectedParts, selectParts } from './selection';
import { TOO_LARGE } from './too-large';
import { wallSignals } from './wall-signals';

/** The code a kind of read needs beyond the HTML form and the metadata. */
export interface ScriptParts {
  /** Markdown of the whole page, and frame reads: the reader form as light nodes. */
  light?: {
    readerForm: typeof readerForm;
    lightBuilder: typeof lightBuilder;
    detachTree: typeof detachTree;
    documentToMarkdown: typeof documentToMarkdown;
  };
  /** Reads of the main content (only_main_content): the reader form as an inert document, for Readability. */
  main?: {
    readerForm: typeof readerForm;
    domBuilder: typeof domBuilder;
    ourExtract: typeof ourExtract;
    settledExtract: typeof settledExtract;
    mainContentOf: typeof mainContentOf;
    documentToMarkdown: typeof documentToMarkdown;
  };
  /** Reads that gather the page's links and images (include_links, include_images), and their frames. */
  views?: {
    gatherViews: typeof gatherViews;
    markMainContent: typeof markMainContent;
    withImageSizes: typeof withImageSizes;
    markMainRegions: typeof markMainRegions;
  };
}

const PENDING_GLOBAL = 'pageFetchPendingRead';

interface Form<N, D> {
  form: ReaderForm<N>;
  builder: FormBuilder<N>;
  doc: D;
}

/** A read between its two calls (or within its one). */
type PendingRead = {
  maxChars: number;
  /** Bring the page's metadata in the reply. */
  metadata: boolean;
  /** The parts the read keeps, when the request selected some. */
  parts?: SelectedParts;
  /** The links and images to gather beside the content. */
  views?: ViewRequest;
  /** What the read had done when it asked for the second extractor, to go on from there. */
  waiting?: Waiting;
} & (
  | ({ finish: 'markdown' | 'frame'; tree: 'light' } & Form<LightNode, LightDocument>)
  /**
   * Only the main content (mainContent), or the whole page with its links and images, whose regions
   * need the main content found: both on a DOM, for Readability.
   */
  | ({ finish: 'markdown' | 'main-html' | 'html'; tree: 'dom'; mainContent: boolean } & Form<Node, Document>)
);

/** A read's work done before it asked for the second extractor: done once, since it marks the form. */
interface Waiting {
  gathered: GatheredViews | undefined;
  extract: MainExtract;
  /** A whole-page read's answer, made before its regions are decided. */
  reply?: PageReply;
}

/** The second extractor, once its script has run in this world. */
const secondExtractor = () => (globalThis as Record<string, unknown>)[SECOND_EXTRACTOR_GLOBAL] as Extractor | undefined;

/** The DOM as html: the whole of it, or the parts selected. */
const htmlOf = (parts: SelectedParts | undefined) => (parts === undefined ? htmlForm(document) : selectedHtml(document, parts));

/** What the reply says of the selection: how many elements the include selectors matched. */
const selectionExtras = (parts: SelectedParts | undefined) => (parts?.included ? { selectorMatches: parts.matches } : {});

/** A read of the whole page, finished: refused over maxChars, with the signals of a wall when it shows one's marker. */
function bounded(reply: PageReply & { kind: 'html' | 'markdown' }, maxChars: number): PageReply {
  const text = reply.kind === 'html' ? reply.html : reply.markdown;
  if (text.length > maxChars) return { kind: 'too-large' };
  const signals = wallSignals(document);
  return signals === undefined ? reply : { ...reply, wallSignals: signals };
}

function graftFrames<N, D>({ form, builder }: Form<N, D>, trees: Record<string, PortableTree | null>): void {
  for (const [key, placeholder] of form.remoteFrames) {
    const tree = trees[key];
    if (tree) graft(tree, placeholder, builder);
  }
}

function need<T>(part: T | undefined, what: string): T {
  if (part === undefined) throw new Error(`this script cannot read ${what}`);
  return part;
}

/** The `run` function of a script holding `parts`: it answers the reads those parts allow. */
export function pageScript(parts: ScriptParts): (request: PageRequest) => PageReply {
  /**
   * A read whose extract is questioned, kept in this world's global with what it has done, until the
   * caller has run the second extractor's script here and asks it to resume.
   */
  function waitForSecondExtractor(read: PendingRead, waiting: Waiting): PageReply {
    (globalThis as Record<string, unknown>)[PENDING_GLOBAL] = { ...read, waiting };
    return { kind: 'second-extractor-needed' };
  }

  /** Our extract of the read's form, done once: a resumed read has it already. */
  function extractOf(read: PendingRead & { tree: 'dom' }, metadata: ReturnType<typeof pageMetadata>): MainExtract | null {
    if (read.waiting !== undefined) return read.waiting.extract;
    return need(parts.main, 'the main content').ourExtract(read.doc, metadata, document.URL);
  }

  /** A whole page read on a DOM for its links and images: the content first, the extraction may change the form. */
  function finishWhole(read: PendingRead & { tree: 'dom' }): PageReply {
    const main = need(parts.main, 'the main content');
    const { gatherViews, markMainRegions } = need(parts.views, 'links and images');
    const metadata = pageMetadata(document);
    const gathered = read.waiting?.gathered ?? gatherViews(read.doc, read.views ?? {}, document.URL);
    const extras = { ...(read.metadata ? { metadata } : {}), ...selectionExtras(read.parts), views: gathered.views };
    const reply =
      read.waiting?.reply ??
      bounded(
        read.finish === 'html'
          ? { kind: 'html', html: htmlOf(read.parts), ...extras }
          : { kind: 'markdown', markdown: main.documentToMarkdown(read.doc, document.URL), ...extras },
        read.maxChars,
      );
    // Lists with nothing in them have no region to decide: the extraction is spared.
    if (reply.kind === 'too-large' || gathered.entries.size === 0) return reply;
    const extract = extractOf(read, metadata);
    const extractor = secondExtractor();
    if (extract?.questioned && extractor === undefined) return waitForSecondExtractor(read, { gathered, extract, reply });
    markMainRegions(gathered, extract === null ? null : main.settledExtract(read.doc, extract, document.URL, extractor));
    return reply;
  }

  function finishMain(read: PendingRead & { tree: 'dom' }): PageReply {
    if (!read.mainContent) return finishWhole(read);
    const main = need(parts.main, 'the main content');
    const metadata = pageMetadata(document);
    const views = read.views === undefined ? undefined : need(parts.views, 'links and images');
    const gathered = read.waiting?.gathered ?? views?.gatherViews(read.doc, read.views ?? {}, document.URL);
    // Only what the page shows is looked in: text it hides is never content, not even when nothing
    // shown is an article (docs/api.md "Main content").
    const extract = extractOf(read, metadata);
    const extractor = secondExtractor();
    if (extract?.questioned && extractor === undefined) return waitForSecondExtractor(read, { gathered, extract });
    const found = extract === null ? null : main.mainContentOf(read.doc, main.settledExtract(read.doc, extract, document.URL, extractor));
    if (gathered !== undefined) views?.markMainContent(gathered, found);
    const content = found?.doc ?? null;
    const extras = {
      contentMode: content === null ? ('full' as const) : ('main' as const),
      ...(read.metadata ? { metadata } : {}),
      ...selectionExtras(read.parts),
      ...(gathered === undefined ? {} : { views: gathered.views }),
    };
    if (read.finish === 'main-html') {
      // The whole page, when no main content is told apart, is the DOM as it stands, as without the option.
      const html = content === null ? htmlOf(read.parts) : `<!DOCTYPE html>${content.documentElement.outerHTML}`;
      return bounded({ kind: 'html', html, ...extras }, read.maxChars);
    }
    const markdown = main.documentToMarkdown(content ?? read.doc, document.URL);
    return bounded({ kind: 'markdown', markdown, ...extras }, read.maxChars);
  }

  function finish(read: PendingRead): PageReply {
    if (read.tree === 'dom') return finishMain(read);
    if (read.finish === 'frame') return { kind: 'frame', tree: encodeChildren(read.form.body) };
    const markdown = need(parts.light, 'a whole page').documentToMarkdown(read.doc, document.URL);
    const extras = { ...(read.metadata ? { metadata: pageMetadata(document) } : {}), ...selectionExtras(read.parts) };
    return bounded({ kind: 'markdown', markdown, ...extras }, read.maxChars);
  }

  /**
   * The reader form a read starts with: on a DOM for the main content or for the page's links and
   * images, anything else's as light nodes. With views, image copies carry their rendered size.
   */
  function startRead(request: PageRequest & { mode: 'markdown' | 'main-html' | 'frame' | 'html' }): PendingRead {
    const metadata = request.mode !== 'frame' && request.metadata === true;
    const selected = request.mode === 'frame' ? undefined : selectParts(document, request.selection);
    const views = request.views;
    const common = {
      metadata,
      maxChars: request.maxChars,
      ...(selected === undefined ? {} : { parts: selected }),
      ...(views === undefined ? {} : { views }),
    };
    // An html read inlines frames only for its views: its content is the DOM as it stands.
    const bounds =
      request.mode === 'html'
        ? { maxChars: request.maxChars, maxFrames: request.maxFrames ?? 0, maxFrameDepth: request.maxFrameDepth ?? 0 }
        : request;
    const mainContent = request.mode === 'main-html' || (request.mode === 'markdown' && request.mainContent);
    if (mainContent || (request.mode !== 'frame' && views !== undefined)) {
      const main = need(parts.main, 'the main content');
      const base = main.domBuilder(document);
      const builder = views === undefined ? base : need(parts.views, 'links and images').withImageSizes<Node, typeof base>(base);
      const form = main.readerForm(document, bounds, builder, selected);
      return { finish: request.mode, tree: 'dom', mainContent, form, builder, doc: base.doc, ...common };
    }
    if (request.mode === 'html') throw new Error('an html read is made on a DOM');
    const light = need(parts.light, 'a whole page');
    const base = light.lightBuilder(document);
    const builder = views === undefined ? base : need(parts.views, 'links and images').withImageSizes<LightNode, typeof base>(base);
    const form = light.readerForm(document, bounds, builder, selected);
    return { finish: request.mode, tree: 'light', form, builder, doc: base.doc, ...common };
  }

  /** A read finished at once, or waiting in this world's global for its cross-origin frames. */
  function started(read: PendingRead): PageReply {
    if (read.form.remoteFrames.size === 0) return finish(read);
    // The page's scripts run until the second call: the form must not read the page then.
    if (read.tree === 'light') need(parts.light, 'a whole page').detachTree(read.doc.documentElement);
    (globalThis as Record<string, unknown>)[PENDING_GLOBAL] = read;
    return { kind: 'frames-needed', keys: [...read.form.remoteFrames.keys()] };
  }

  function answer(request: PageRequest): PageReply {
    const world = globalThis as Record<string, unknown>;
    switch (request.mode) {
      case 'html': {
        if (request.views !== undefined) return started(startRead(request));
        const selected = selectParts(document, request.selection);
        const extras = { ...(request.metadata ? { metadata: pageMetadata(document) } : {}), ...selectionExtras(selected) };
        return bounded({ kind: 'html', html: htmlOf(selected), ...extras }, request.maxChars);
      }
      case 'markdown':
      case 'main-html':
      case 'frame':
        return started(startRead(request));
      case 'graft': {
        const read = world[PENDING_GLOBAL] as PendingRead | undefined;
        if (read === undefined) throw new Error('no read is waiting for its frames');
        world[PENDING_GLOBAL] = undefined;
        // Narrowed apart: each form has its own kind of node.
        if (read.tree === 'dom') graftFrames(read, request.trees);
        else graftFrames(read, request.trees);
        return finish(read);
      }
      case 'resume': {
        const read = world[PENDING_GLOBAL] as PendingRead | undefined;
        if (read?.waiting === undefined) throw new Error('no read is waiting for the second extractor');
        world[PENDING_GLOBAL] = undefined;
        return finish(read);
      }
    }
  }

  return (request) => {
    try {
      return answer(request);
    } catch (error) {
      if (error === TOO_LARGE) return { kind: 'too-large' };
      throw error;
    }
  };
}

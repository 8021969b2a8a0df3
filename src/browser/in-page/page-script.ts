// The script the Durable Object runs in the page (src/browser/serialize.ts), bundled into one
// function body by scripts/build-page-script.mjs. It runs in an isolated world: its own globals and
// prototypes, which the page's scripts cannot redefine, over the page's real DOM. Markdown is made
// here, where the DOM lives, by the same serializer the Worker's tests run on linkedom
// (src/markdown); only the result crosses CDP.
//
// A document holding cross-origin frames is read in two calls: the first builds the reader form and
// names the frames it needs; the caller reads those (each in its own world, recursively) and the
// second call grafts them in and finishes. The form waits in this world's global in between.
import { documentToMarkdown } from '../../markdown/convert';
import { graft, encodeChildren } from './portable-tree';
import type { PageReply, PageRequest, PortableTree } from './protocol';
import { htmlForm } from './html-form';
import { pageMetadata } from './metadata';
import { mainContentOf } from './main-content';
import { readerForm, TOO_LARGE, type ReaderForm } from './reader-form';

const PENDING_GLOBAL = 'pageFetchPendingRead';

interface PendingRead {
  form: ReaderForm;
  finish: 'markdown' | 'main-html' | 'frame';
  /** Only the main content (only_main_content); always for 'main-html'. */
  mainContent: boolean;
  /** Bring the page's metadata in the reply. */
  metadata: boolean;
  maxChars: number;
}

function bounded(reply: PageReply & { kind: 'html' | 'markdown' }, maxChars: number): PageReply {
  const text = reply.kind === 'html' ? reply.html : reply.markdown;
  return text.length > maxChars ? { kind: 'too-large' } : reply;
}

function finish(read: PendingRead): PageReply {
  if (read.finish === 'frame') return { kind: 'frame', tree: encodeChildren(read.form.body) };
  const metadata = read.metadata || read.mainContent ? pageMetadata(document) : undefined;
  // The title written for sharing (Open Graph, JSON-LD) rarely carries the site's name, as <title> does.
  const main = read.mainContent ? mainContentOf(read.form.doc, metadata?.title ?? null) : null;
  const extras = {
    ...(read.mainContent ? { contentMode: main === null ? ('full' as const) : ('main' as const) } : {}),
    ...(read.metadata ? { metadata } : {}),
  };
  if (read.finish === 'main-html') {
    // The whole page, when no main content is told apart, is the DOM as it stands, as without the option.
    const html = main === null ? htmlForm(document) : `<!DOCTYPE html>${main.documentElement.outerHTML}`;
    return bounded({ kind: 'html', html, ...extras }, read.maxChars);
  }
  return bounded({ kind: 'markdown', markdown: documentToMarkdown(main ?? read.form.doc, document.URL), ...extras }, read.maxChars);
}

function graftFrames(read: PendingRead, trees: Record<string, PortableTree | null>): void {
  for (const [key, placeholder] of read.form.remoteFrames) {
    const tree = trees[key];
    if (tree) graft(tree, placeholder, read.form.doc);
  }
}

function answer(request: PageRequest): PageReply {
  const world = globalThis as Record<string, unknown>;
  switch (request.mode) {
    case 'html':
      return bounded(
        { kind: 'html', html: htmlForm(document), ...(request.metadata ? { metadata: pageMetadata(document) } : {}) },
        request.maxChars,
      );
    case 'markdown':
    case 'main-html':
    case 'frame': {
      const mainContent = request.mode === 'main-html' || (request.mode === 'markdown' && request.mainContent);
      const metadata = request.mode !== 'frame' && request.metadata === true;
      const read: PendingRead = {
        form: readerForm(document, request),
        finish: request.mode,
        mainContent,
        metadata,
        maxChars: request.maxChars,
      };
      if (read.form.remoteFrames.size === 0) return finish(read);
      world[PENDING_GLOBAL] = read;
      return { kind: 'frames-needed', keys: [...read.form.remoteFrames.keys()] };
    }
    case 'graft': {
      const read = world[PENDING_GLOBAL] as PendingRead | undefined;
      if (read === undefined) throw new Error('no read is waiting for its frames');
      world[PENDING_GLOBAL] = undefined;
      graftFrames(read, request.trees);
      return finish(read);
    }
  }
}

export function run(request: PageRequest): PageReply {
  try {
    return answer(request);
  } catch (error) {
    if (error === TOO_LARGE) return { kind: 'too-large' };
    throw error;
  }
}

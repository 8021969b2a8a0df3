// The script the Durable Object runs in the page (src/browser/serialize.ts), bundled into one
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
import type { documentToMarkdown } from '../../markdown/convert';
import { graft, encodeChildren } from './portable-tree';
import type { PageReply, PageRequest, PortableTree } from './protocol';
import { htmlForm } from './html-form';
import { pageMetadata } from './metadata';
import type { mainContentOf } from './main-content';
import { TOO_LARGE } from './too-large';
import type { readerForm, ReaderForm } from './reader-form';

/** The code a kind of read needs beyond the HTML form and the metadata. */
export interface ScriptParts {
  /** Markdown and frame reads. */
  reader?: { readerForm: typeof readerForm; documentToMarkdown: typeof documentToMarkdown };
  /** Reads of the main content (only_main_content). */
  mainContentOf?: typeof mainContentOf;
}

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

function graftFrames(read: PendingRead, trees: Record<string, PortableTree | null>): void {
  for (const [key, placeholder] of read.form.remoteFrames) {
    const tree = trees[key];
    if (tree) graft(tree, placeholder, read.form.doc);
  }
}

/** The `run` function of a script holding `parts`: it answers the reads those parts allow. */
export function pageScript(parts: ScriptParts): (request: PageRequest) => PageReply {
  const reader = () => {
    if (parts.reader === undefined) throw new Error('this script cannot read a reader form');
    return parts.reader;
  };

  function finish(read: PendingRead): PageReply {
    if (read.finish === 'frame') return { kind: 'frame', tree: encodeChildren(read.form.body) };
    const metadata = read.metadata || read.mainContent ? pageMetadata(document) : undefined;
    let main: Document | null = null;
    if (read.mainContent && metadata !== undefined) {
      if (parts.mainContentOf === undefined) throw new Error('this script cannot read the main content');
      main = parts.mainContentOf(read.form.doc, metadata, document.URL);
    }
    const extras = {
      ...(read.mainContent ? { contentMode: main === null ? ('full' as const) : ('main' as const) } : {}),
      ...(read.metadata ? { metadata } : {}),
    };
    if (read.finish === 'main-html') {
      // The whole page, when no main content is told apart, is the DOM as it stands, as without the option.
      const html = main === null ? htmlForm(document) : `<!DOCTYPE html>${main.documentElement.outerHTML}`;
      return bounded({ kind: 'html', html, ...extras }, read.maxChars);
    }
    const markdown = reader().documentToMarkdown(main ?? read.form.doc, document.URL);
    return bounded({ kind: 'markdown', markdown, ...extras }, read.maxChars);
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
          form: reader().readerForm(document, request),
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

  return (request) => {
    try {
      return answer(request);
    } catch (error) {
      if (error === TOO_LARGE) return { kind: 'too-large' };
      throw error;
    }
  };
}

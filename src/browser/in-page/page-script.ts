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
import { readerForm, TOO_LARGE, type ReaderForm } from './reader-form';

const PENDING_GLOBAL = 'pageFetchPendingRead';

interface PendingRead {
  form: ReaderForm;
  finish: 'markdown' | 'frame';
  maxChars: number;
}

function finish(read: PendingRead): PageReply {
  if (read.finish === 'frame') return { kind: 'frame', tree: encodeChildren(read.form.body) };
  const markdown = documentToMarkdown(read.form.doc, document.URL);
  return markdown.length > read.maxChars ? { kind: 'too-large' } : { kind: 'markdown', markdown };
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
    case 'html': {
      const html = htmlForm(document);
      return html.length > request.maxChars ? { kind: 'too-large' } : { kind: 'html', html };
    }
    case 'markdown':
    case 'frame': {
      const read: PendingRead = { form: readerForm(document, request), finish: request.mode, maxChars: request.maxChars };
      if (read.form.remoteFrames.size === 0) return finish(read);
      world[PENDING_GLOBAL] = read;
      return { kind: 'frames-needed', keys: [...read.form.remoteFrames.keys()] };
    }
    case 'metadata':
      return { kind: 'metadata', metadata: pageMetadata(document) };
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

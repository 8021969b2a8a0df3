// PDF bytes → markdown and html in reading order. pdf.js (through unpdf, its build for
// serverless runtimes) parses; the layout work is ours: runs → segments → column boxes →
// lines → furniture removed → blocks (tables, paragraphs, lists, headings) → markdown / html.
// Pages are read one at a time and released, so memory follows one page, not the document.

import { getDocumentProxy } from 'unpdf';
import { oneLine } from '../shared/one-line';
import { draftBlocks, measure } from './blocks';
import { readingOrder } from './columns';
import { dropFurniture, type PageLines } from './furniture';
import { toBlocks } from './headings';
import { boxLines } from './lines';
import { type PdfMetadata, readMetadata } from './metadata';
import type { Block, Line } from './model';
import { flattenOutline, normalizeTitle, type OutlineNode } from './outline';
import { renderHtml } from './render-html';
import { renderMarkdown } from './render-markdown';
import { type PdfLink, type PdfTextItem, pageRuns } from './runs';
import { pageSegments } from './segments';
import { headingContent, itemLevels, type MarkedItem, type StructNode } from './structure';
import { plain } from './text';

export type { PdfMetadata } from './metadata';

export interface PdfDocument {
  markdown: string;
  html: string;
  pages: { converted: number; total: number };
  metadata: PdfMetadata;
}

export type PdfRefusal = 'scanned' | 'encrypted' | 'broken';

export class PdfRefused extends Error {
  constructor(
    readonly reason: PdfRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'PdfRefused';
  }
}

type Doc = Awaited<ReturnType<typeof getDocumentProxy>>;

function refusal(error: unknown): PdfRefused {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'PasswordException') return new PdfRefused('encrypted', 'The PDF is encrypted (it needs a password).');
  const raw =
    error instanceof Error || (typeof error === 'object' && error !== null)
      ? String((error as { message?: unknown }).message ?? '')
      : String(error);
  const reason = oneLine(raw).replace(/\.$/, '') || 'it cannot be read';
  return new PdfRefused('broken', `The PDF is broken: ${reason}.`);
}

interface PdfAnnotation {
  subtype?: string;
  url?: string;
  rect?: number[];
}

function absoluteLinks(annotations: readonly PdfAnnotation[]): PdfLink[] {
  const out: PdfLink[] = [];
  for (const a of annotations) {
    if (a.subtype !== 'Link' || typeof a.url !== 'string' || !Array.isArray(a.rect)) continue;
    // Absolute web and mail links only: in-document jumps have nowhere to point to.
    if (!/^(https?:\/\/|mailto:)/i.test(a.url)) continue;
    try {
      out.push({ rect: a.rect, url: new URL(a.url).href });
    } catch {
      // A malformed URL is left as plain text.
    }
  }
  return out;
}

async function readPage(doc: Doc, n: number, box: { next: number }, tagged: boolean): Promise<PageLines & { runs: number }> {
  const page = await doc.getPage(n);
  try {
    const viewport = page.getViewport({ scale: 1 });
    const tree = tagged ? ((await page.getStructTree().catch(() => null)) as StructNode | null) : null;
    const levels = headingContent(tree);
    const content = await page.getTextContent({ includeMarkedContent: levels.size > 0 });
    const annotations = (await page.getAnnotations().catch(() => [])) as PdfAnnotation[];
    const tags = levels.size > 0 ? itemLevels(content.items as MarkedItem[], levels) : [];
    const items = content.items.filter((i): i is typeof i & PdfTextItem => 'str' in i);
    const runs = pageRuns(items, viewport.transform, absoluteLinks(annotations), tags);
    const lines = readingOrder(pageSegments(runs)).flatMap((segs) => boxLines(segs, n, box.next++));
    return { lines, height: viewport.height, runs: runs.length };
  } finally {
    page.cleanup();
  }
}

/**
 * Converts the first `maxPages` pages. Takes ownership of `bytes`: pdf.js transfers their buffer
 * (not copied, to keep a large PDF in memory once), so it is empty afterwards. Throws PdfRefused.
 */
export async function convertPdf(bytes: Uint8Array, options: { maxPages: number }): Promise<PdfDocument> {
  let doc: Doc;
  try {
    doc = await getDocumentProxy(bytes, { disableFontFace: true, verbosity: 0 });
  } catch (error) {
    throw refusal(error);
  }
  try {
    const total = doc.numPages;
    const converted = Math.max(0, Math.min(total, Math.floor(options.maxPages)));
    const meta = await doc.getMetadata().catch(() => null);
    const outline = flattenOutline((await doc.getOutline().catch(() => null)) as OutlineNode[] | null);
    const pages: PageLines[] = [];
    let runs = 0;
    const box = { next: 0 };
    // Only a document marked as tagged has a structure tree worth reading.
    const tagged = ((await doc.getMarkInfo().catch(() => null)) as { Marked?: boolean } | null)?.Marked === true;
    for (let n = 1; n <= converted; n++) {
      const page = await readPage(doc, n, box, tagged);
      runs += page.runs;
      pages.push({ lines: page.lines, height: page.height });
    }
    if (runs === 0) throw new PdfRefused('scanned', 'The PDF has no text layer: scanned pages need OCR.');
    const all = pages.flatMap((p) => p.lines);
    const layout = measure(all);
    const titles = new Set(outline.map((e) => normalizeTitle(e.title)).filter((t) => t !== ''));
    const build = (lines: Line[]) => toBlocks(draftBlocks(lines, layout, titles), layout, outline);
    let blocks = build(dropFurniture(pages, layout.bodySize, layout.pitch).flat());
    // A document whose every line looks like furniture (a one-line cover, a label) keeps them all.
    if (blocks.length === 0) blocks = build(all);
    const metadata = readMetadata(meta?.info as Record<string, unknown> | undefined, meta?.metadata);
    return {
      markdown: renderMarkdown(blocks),
      html: renderHtml(blocks, metadata.title ?? firstHeading(blocks)),
      pages: { converted, total },
      metadata,
    };
  } catch (error) {
    throw error instanceof PdfRefused ? error : refusal(error);
  } finally {
    await doc.loadingTask.destroy().catch(() => undefined);
  }
}

function firstHeading(blocks: readonly Block[]): string {
  for (const b of blocks) if (b.kind === 'heading') return plain(b.content);
  return '';
}

// The block model as markdown: ATX headings, paragraphs, `-` / `1.` lists, GFM pipe tables,
// inline links. Text is escaped by the same rules as the HTML serializer's (src/markdown), so
// only what would be misread gets a backslash.

import { escapeText } from '../markdown/escape';
import { pipeTable } from '../markdown/pipe-table';
import { formatDestination } from '../markdown/urls';
import type { Block, Inline, ListItem } from './model';

function inlines(content: readonly Inline[], atLineStart: boolean): string {
  const out: string[] = [];
  content.forEach((piece, i) => {
    const prev = content[i - 1];
    const next = content[i + 1];
    const inLink = piece.href !== null;
    const escaped = escapeText(piece.text, {
      atLineStart: atLineStart && i === 0,
      before: inLink ? ' ' : prev ? (prev.href !== null ? ')' : prev.text.slice(-1)) : ' ',
      after: inLink ? ' ' : next ? (next.href !== null ? '[' : next.text.charAt(0)) : '\n',
      inLinkText: inLink,
    });
    out.push(inLink ? `[${escaped}](${formatDestination(piece.href!)})` : escaped);
  });
  return out.join('');
}

function listItem(item: ListItem): string {
  if (item.number !== null) return `${item.number}. ${inlines(item.content, true)}`;
  if (item.label === '') return `- ${inlines(item.content, true)}`;
  return `- ${escapeText(item.label, { atLineStart: true, before: ' ', after: ' ', inLinkText: false })} ${inlines(item.content, false)}`;
}

function cell(text: string): string {
  const escaped = escapeText(text, { atLineStart: false, before: ' ', after: ' ', inLinkText: false });
  return escaped.replace(/\|/g, '\\|');
}

function table(rows: readonly string[][]): string {
  return pipeTable(rows.map((row) => row.map(cell)));
}

export function renderMarkdown(blocks: readonly Block[]): string {
  const parts: string[] = [];
  for (const b of blocks) {
    switch (b.kind) {
      case 'heading':
        parts.push(`${'#'.repeat(b.level)} ${inlines(b.content, false)}`);
        break;
      case 'paragraph':
        parts.push(inlines(b.content, true));
        break;
      case 'list':
        parts.push(b.items.map((item) => listItem(item)).join('\n'));
        break;
      case 'table':
        parts.push(table(b.rows));
        break;
    }
  }
  return parts.filter((p) => p.trim() !== '').join('\n\n') + '\n';
}

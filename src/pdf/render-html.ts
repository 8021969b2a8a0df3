// The block model as a minimal HTML document: the same headings, paragraphs, lists, tables and
// links as the markdown, nothing of a viewer's markup.

import type { Block, Inline } from './model';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

function inlines(content: readonly Inline[]): string {
  return content.map((p) => (p.href !== null ? `<a href="${escapeHtml(p.href)}">${escapeHtml(p.text)}</a>` : escapeHtml(p.text))).join('');
}

function table(rows: readonly string[][]): string {
  const width = Math.max(...rows.map((r) => r.length));
  const row = (r: readonly string[], tag: string) =>
    `<tr>${Array.from({ length: width }, (_, i) => `<${tag}>${escapeHtml(r[i] ?? '')}</${tag}>`).join('')}</tr>`;
  const [head, ...body] = rows;
  return `<table><thead>${row(head ?? [], 'th')}</thead><tbody>${body.map((r) => row(r, 'td')).join('')}</tbody></table>`;
}

export function renderHtml(blocks: readonly Block[], title: string): string {
  const parts: string[] = [];
  for (const b of blocks) {
    switch (b.kind) {
      case 'heading':
        parts.push(`<h${b.level}>${inlines(b.content)}</h${b.level}>`);
        break;
      case 'paragraph':
        parts.push(`<p>${inlines(b.content)}</p>`);
        break;
      case 'list': {
        const tag = b.ordered ? 'ol' : 'ul';
        const items = b.items.map((item) => {
          const value = item.number !== null ? ` value="${item.number}"` : '';
          const label = item.label !== '' ? `${escapeHtml(item.label)} ` : '';
          return `<li${value}>${label}${inlines(item.content)}</li>`;
        });
        parts.push(`<${tag}>${items.join('')}</${tag}>`);
        break;
      }
      case 'table':
        parts.push(table(b.rows));
        break;
    }
  }
  return `<!DOCTYPE html><html><head><title>${escapeHtml(title)}</title></head><body>${parts.join('\n')}</body></html>`;
}

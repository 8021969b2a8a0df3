// The document's own information: the info dictionary first (Title, Author, CreationDate, and
// the catalog's /Lang, which pdf.js reports as Language), XMP where the dictionary is silent.
import { metadataValue } from '../shared/metadata';

export interface PdfMetadata {
  title: string | null;
  author: string | null;
  language: string | null;
  published_time: string | null;
}

interface XmpLike {
  get(name: string): unknown;
}

/** A PDF date (`D:YYYYMMDDHHmmSSOHH'mm'`) or an XMP date as ISO 8601, or null. */
function pdfDate(value: unknown): string | null {
  const s = metadataValue(value);
  if (s === null) return null;
  const m = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+-])?(\d{2})?'?(\d{2})?'?/.exec(s);
  if (m) {
    const [, y, mo = '01', d = '01', h = '00', mi = '00', se = '00', tz, th = '00', tm = '00'] = m;
    const offset = tz === undefined || tz === 'Z' || tz === 'z' ? 'Z' : `${tz}${th}:${tm}`;
    const iso = `${y}-${mo}-${d}T${h}:${mi}:${se}${offset}`;
    const t = Date.parse(iso);
    return Number.isNaN(t) ? null : new Date(t).toISOString();
  }
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

function xmp(meta: XmpLike | null | undefined, name: string): unknown {
  try {
    const v = meta?.get(name);
    return Array.isArray(v) ? v.join(', ') : v;
  } catch {
    return null;
  }
}

export function readMetadata(info: Record<string, unknown> | null | undefined, meta: XmpLike | null | undefined): PdfMetadata {
  const i = info ?? {};
  return {
    title: metadataValue(i.Title) ?? metadataValue(xmp(meta, 'dc:title')),
    author: metadataValue(i.Author) ?? metadataValue(xmp(meta, 'dc:creator')),
    language: metadataValue(i.Language) ?? metadataValue(xmp(meta, 'dc:language')),
    published_time: pdfDate(i.CreationDate) ?? pdfDate(xmp(meta, 'xmp:createdate')),
  };
}

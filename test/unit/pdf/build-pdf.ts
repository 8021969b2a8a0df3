// Writes small, valid PDFs for the tests: pages of positioned text runs in Helvetica or
// Helvetica-Bold, link annotations, an outline, an info dictionary, a catalog language and
// structure tags; or an encrypted file, with a user password (it cannot be opened) or with only an
// owner password (it opens). Coordinates are given from the top left of the page (as read), y at
// the baseline.

import { createHash } from 'node:crypto';

export interface TextRun {
  x: number;
  y: number;
  size: number;
  text: string;
  bold?: boolean;
  /** Structure role of the run in a tagged PDF (H1, H2, P, …): the run becomes its own element. */
  role?: string;
}

export interface LinkSpec {
  /** x0, top, x1, bottom, from the top left. */
  box: [number, number, number, number];
  url: string;
}

export interface PageSpec {
  runs: TextRun[];
  links?: LinkSpec[];
}

export interface PdfSpec {
  pages: PageSpec[];
  width?: number;
  height?: number;
  info?: Record<string, string>;
  lang?: string;
  outline?: { title: string; page: number }[];
  /** Adds a standard security handler whose empty user password does not open the file. */
  encrypted?: boolean;
  /** Encrypts the content (RC4, 40 bits) with an empty user password and this owner password. */
  ownerPassword?: string;
  /** Bytes of filler in a stream nothing draws, to make the file this much larger. */
  padding?: number;
}

const PAD = Uint8Array.from([
  0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08, 0x2e, 0x2e, 0x00, 0xb6, 0xd0, 0x68, 0x3e,
  0x80, 0x2f, 0x0c, 0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
]);
const FILE_ID = new Uint8Array(16).fill(0xab);

function md5(...parts: Uint8Array[]): Uint8Array {
  const hash = createHash('md5');
  for (const p of parts) hash.update(p);
  return new Uint8Array(hash.digest());
}

function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = Uint8Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = new Uint8Array(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** The standard security handler, revision 2: /O, /U and the file key for an empty user password. */
function standardSecurity(ownerPassword: string): { o: Uint8Array; u: Uint8Array; key: Uint8Array } {
  const padded = (pw: string) => {
    const out = new Uint8Array(32);
    const bytes = latin1(pw).slice(0, 32);
    out.set(bytes);
    out.set(PAD.slice(0, 32 - bytes.length), bytes.length);
    return out;
  };
  const o = rc4(md5(padded(ownerPassword)).slice(0, 5), padded(''));
  const permissions = Uint8Array.from([0xd4, 0xff, 0xff, 0xff]); // -44, little-endian
  const key = md5(padded(''), o, permissions, FILE_ID).slice(0, 5);
  return { o, u: rc4(key, PAD), key };
}

/** RC4 with the key of object `num` generation 0. */
function encryptFor(key: Uint8Array, num: number, data: Uint8Array): Uint8Array {
  const objectKey = md5(key, Uint8Array.from([num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, 0, 0])).slice(0, 10);
  return rc4(objectKey, data);
}

// The few characters beyond Latin-1 the tests use, as WinAnsiEncoding codes; U+2010 HYPHEN (what
// Chromium's print writes) has none, so the fonts' encoding names it at a code WinAnsi leaves unused.
const WIN_ANSI: Record<string, string> = {
  '\u2010': '\x81',
  '\u2022': '\x95',
  '\u2013': '\x96',
  '\u2014': '\x97',
  '\u2018': '\x91',
  '\u2019': '\x92',
  '\u201c': '\x93',
  '\u201d': '\x94',
};

function encodeText(text: string): string {
  return text.replace(/[\u2010\u2013\u2014\u2018\u2019\u201c\u201d\u2022]/g, (c) => WIN_ANSI[c] ?? c);
}

function pdfString(text: string): string {
  text = encodeText(text);
  return `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

export function buildPdf(spec: PdfSpec): Uint8Array {
  const width = spec.width ?? 612;
  const height = spec.height ?? 792;
  const objects: string[] = [];
  const add = (body: string): number => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add('');
  const pagesRef = add('');
  const encoding = '<< /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [129 /hyphentwo] >>';
  const regular = add(`<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding ${encoding} >>`);
  const bold = add(`<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding ${encoding} >>`);
  const security = spec.ownerPassword !== undefined ? standardSecurity(spec.ownerPassword) : null;
  const pageRefs: number[] = [];
  const tagged = spec.pages.some((p) => p.runs.some((r) => r.role));
  const structRoot = tagged ? add('') : 0;
  const elements: number[] = [];
  const parentTree: string[] = [];
  for (const [pageIndex, page] of spec.pages.entries()) {
    const pageObject = objects.length + 2 + (page.links?.length ?? 0);
    const marked: number[] = [];
    const ops = page.runs
      .map((r) => {
        const show = `BT /${r.bold ? 'F2' : 'F1'} ${r.size} Tf 1 0 0 1 ${r.x} ${height - r.y} Tm ${pdfString(r.text)} Tj ET`;
        if (!r.role) return show;
        // Element objects are added after the page's own objects, so their numbers are known ahead.
        marked.push(elements.length + marked.length);
        return `/${r.role} << /MCID ${marked.length - 1} >> BDC ${show} EMC`;
      })
      .join('\n');
    if (marked.length > 0) parentTree.push(`${pageIndex} [${marked.map((_, i) => `${pageObject + 1 + i} 0 R`).join(' ')}]`);
    // With an owner password only, the stream is stored encrypted (its object number is the next one).
    const body = security ? String.fromCharCode(...encryptFor(security.key, objects.length + 1, latin1(encodeText(ops)))) : ops;
    const content = add(`<< /Length ${body.length} >>\nstream\n${body}\nendstream`);
    const annots = (page.links ?? []).map((l) => {
      const [x0, top, x1, bottom] = l.box;
      return add(
        `<< /Type /Annot /Subtype /Link /Rect [${x0} ${height - bottom} ${x1} ${height - top}] /Border [0 0 0] /A << /S /URI /URI ${pdfString(l.url)} >> >>`,
      );
    });
    const annotsEntry = annots.length > 0 ? ` /Annots [${annots.map((a) => `${a} 0 R`).join(' ')}]` : '';
    const structParents = marked.length > 0 ? ` /StructParents ${pageIndex}` : '';
    const pageRef = add(
      `<< /Type /Page /Parent ${pagesRef} 0 R /MediaBox [0 0 ${width} ${height}] /Resources << /Font << /F1 ${regular} 0 R /F2 ${bold} 0 R >> >> /Contents ${content} 0 R${annotsEntry}${structParents} >>`,
    );
    pageRefs.push(pageRef);
    const roles = page.runs.filter((r) => r.role).map((r) => r.role!);
    roles.forEach((role, mcid) => {
      elements.push(add(`<< /Type /StructElem /S /${role} /P ${structRoot} 0 R /Pg ${pageRef} 0 R /K ${mcid} >>`));
    });
  }
  if (tagged) {
    objects[structRoot - 1] =
      `<< /Type /StructTreeRoot /K [${elements.map((e) => `${e} 0 R`).join(' ')}] /ParentTree << /Nums [${parentTree.join(' ')}] >> >>`;
  }
  objects[pagesRef - 1] = `<< /Type /Pages /Kids [${pageRefs.map((p) => `${p} 0 R`).join(' ')}] /Count ${pageRefs.length} >>`;
  let outlineEntry = '';
  if (spec.outline && spec.outline.length > 0) {
    const root = add('');
    const first = objects.length + 1;
    const items = spec.outline.map((o, i) => {
      const prev = i > 0 ? ` /Prev ${first + i - 1} 0 R` : '';
      const next = i < spec.outline!.length - 1 ? ` /Next ${first + i + 1} 0 R` : '';
      return add(`<< /Title ${pdfString(o.title)} /Parent ${root} 0 R /Dest [${pageRefs[o.page - 1]} 0 R /Fit]${prev}${next} >>`);
    });
    objects[root - 1] = `<< /Type /Outlines /First ${items[0]} 0 R /Last ${items[items.length - 1]} 0 R /Count ${items.length} >>`;
    outlineEntry = ` /Outlines ${root} 0 R`;
  }
  const lang = spec.lang ? ` /Lang ${pdfString(spec.lang)}` : '';
  const marks = tagged ? ` /MarkInfo << /Marked true >> /StructTreeRoot ${structRoot} 0 R` : '';
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesRef} 0 R${outlineEntry}${lang}${marks} >>`;
  const info = spec.info
    ? add(
        `<< ${Object.entries(spec.info)
          .map(([k, v]) => `/${k} ${pdfString(v)}`)
          .join(' ')} >>`,
      )
    : 0;
  const encrypt = security
    ? add(`<< /Filter /Standard /V 1 /R 2 /Length 40 /P -44 /O <${hex(security.o)}> /U <${hex(security.u)}> >>`)
    : spec.encrypted
      ? add(`<< /Filter /Standard /V 1 /R 2 /Length 40 /P -44 /O <${'11'.repeat(32)}> /U <${'22'.repeat(32)}> >>`)
      : 0;

  if (spec.padding !== undefined) add(`<< /Length ${spec.padding} >>\nstream\n${'x'.repeat(spec.padding)}\nendstream`);

  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  const trailerInfo = info ? ` /Info ${info} 0 R` : '';
  const trailerEncrypt = encrypt ? ` /Encrypt ${encrypt} 0 R /ID [<${hex(FILE_ID)}> <${hex(FILE_ID)}>]` : '';
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${trailerInfo}${trailerEncrypt} >>\nstartxref\n${xref}\n%%EOF\n`;
  // Latin-1 text only, one byte per character.
  return Uint8Array.from(out, (c) => c.charCodeAt(0) & 0xff);
}

// How converted pieces are glued together. A piece's leading/trailing newlines (at most two)
// are its wish for separation from its neighbours: blocks carry "\n\n", a nested list inside a
// list item "\n". Joining keeps the larger wish, and drops spaces and hard breaks that would
// end up next to a block boundary (they would otherwise render as stray `\` or spaces).
// A hard break is a backslash before a newline: an odd run of backslashes, never a separator.

const NEWLINES = ['', '\n', '\n\n'];

export function separator(count: number): string {
  return NEWLINES[Math.min(count, 2)] ?? '';
}

/** Number of leading newlines. */
function countLead(s: string): number {
  let i = 0;
  while (i < s.length && s.charCodeAt(i) === 10) i++;
  return i;
}

/** Number of trailing newlines that are separators, not the newline of a hard break. */
function countTrail(s: string): number {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 10) end--;
  const trail = s.length - end;
  return trail > 0 && endsWithOddBackslashes(s, end) ? trail - 1 : trail;
}

function endsWithOddBackslashes(s: string, end: number): boolean {
  let i = end;
  while (i > 0 && s.charCodeAt(i - 1) === 92) i--;
  return (end - i) % 2 === 1;
}

function isBlankChar(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 12;
}

/** Drops trailing spaces and hard breaks (the text before a block boundary). */
export function trimEndBlock(s: string): string {
  let end = s.length;
  for (;;) {
    let sawNewline = false;
    while (end > 0 && isBlankChar(s.charCodeAt(end - 1))) {
      if (s.charCodeAt(end - 1) === 10) sawNewline = true;
      end--;
    }
    if (sawNewline && end > 0 && endsWithOddBackslashes(s, end)) {
      end--;
      continue;
    }
    break;
  }
  return end === s.length ? s : s.slice(0, end);
}

/** Drops leading spaces and hard breaks (the text after a block boundary). */
export function trimStartBlock(s: string): string {
  let start = 0;
  for (;;) {
    while (start < s.length && isBlankChar(s.charCodeAt(start))) start++;
    if (s.charCodeAt(start) === 92 && s.charCodeAt(start + 1) === 10) {
      start += 2;
      continue;
    }
    break;
  }
  return start === 0 ? s : s.slice(start);
}

/** Zero-width space, non-joiner, joiner, word joiner, BOM: a paragraph of them shows nothing. */
function isZeroWidth(code: number): boolean {
  return (code >= 0x200b && code <= 0x200d) || code === 0x2060 || code === 0xfeff;
}

/** True when the string has no visible character (Unicode whitespace and zero-width characters count as invisible). */
export function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (!isBlankChar(code) && code !== 0xa0 && !isZeroWidth(code) && !/\s/u.test(s.charAt(i))) return false;
  }
  return true;
}

/**
 * Joins converted children. The result keeps the first piece's leading and the last piece's
 * trailing separator wish so that the parent can join it in turn.
 */
export function joinParts(parts: readonly string[], tight = false): string {
  if (parts.length === 1) return parts[0] ?? '';
  if (isInlineRun(parts)) return parts.join('');
  const out: string[] = [];
  let lead = 0;
  let pending = 0;
  for (const part of parts) {
    if (part === '') continue;
    const pLead = countLead(part);
    const pTrail = pLead === part.length ? 0 : countTrail(part);
    let body = pLead === 0 && pTrail === 0 ? part : part.slice(pLead, part.length - pTrail);
    const sep = Math.max(pending, pLead);
    if (sep > 0) body = trimStartBlock(body);
    if (pTrail > 0) body = trimEndBlock(body);
    if (body === '' || (sep > 0 && isBlank(body))) {
      pending = Math.max(sep, pTrail);
      continue;
    }
    if (out.length > 0 && sep > 0) {
      const given = trimLastEnd(out);
      if (tight && out.length > 0 && (startsInterruptingBlock(body) || endsClosedLine(out))) {
        out.push('\n');
        out.push(body);
        pending = pTrail;
        continue;
      }
      if (out.length > 0) out.push(separator(Math.max(sep, given)));
      else lead = Math.max(lead, given, sep);
    } else if (out.length === 0) {
      lead = sep;
    }
    if (out.length > 0 && sep === 0 && body.charCodeAt(0) === 92 && body.charCodeAt(1) === 10) {
      // Spaces before a hard break would be trailing whitespace on the line.
      trimLastSpaces(out);
    }
    out.push(body);
    pending = pTrail;
  }
  if (out.length === 0) return separator(Math.max(lead, pending));
  // Separators joined in with the rest: one flat string, where concatenating them around the join
  // would make a rope that the next reader of it (the parent's rule, the final trim) copies again.
  if (lead > 0) out.unshift(separator(lead));
  if (pending > 0) out.push(separator(pending));
  return out.join('');
}

/**
 * Pieces with no separator wish at either end and no hard break at a start: nothing to trim
 * or merge, so plain concatenation is the join (the common case inside a paragraph).
 */
function isInlineRun(parts: readonly string[]): boolean {
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    if (part === '') return false;
    const first = part.charCodeAt(0);
    if (first === 10 || (first === 92 && part.charCodeAt(1) === 10)) return false;
    if (part.charCodeAt(part.length - 1) === 10) return false;
  }
  return true;
}

function isSeparator(entry: string): boolean {
  return entry === '\n' || entry === '\n\n';
}

/**
 * Trims the output's tail before a block boundary. A tail that trims away entirely takes its
 * separator with it; the returned count is the separator wish thereby given back.
 */
function trimLastEnd(out: string[]): number {
  let given = 0;
  while (out.length > 0) {
    const last = trimEndBlock(out[out.length - 1] ?? '');
    if (last !== '' && !isBlank(last)) {
      out[out.length - 1] = last;
      break;
    }
    out.pop();
    const sep = out[out.length - 1];
    if (sep !== undefined && isSeparator(sep)) {
      given = Math.max(given, sep.length);
      out.pop();
    }
  }
  return given;
}

function trimLastSpaces(out: string[]): void {
  const last = out[out.length - 1];
  if (last === undefined) return;
  let end = last.length;
  while (end > 0 && last.charCodeAt(end - 1) === 32) end--;
  if (end < last.length) out[out.length - 1] = last.slice(0, end);
}

/**
 * Whether a block starting with `s` can follow a paragraph line directly (no blank line):
 * ATX heading, block quote, fence, bullet item, ordered item starting at 1.
 */
export function startsInterruptingBlock(s: string): boolean {
  const c = s.charCodeAt(0);
  if (c === 35 /* # */) {
    let n = 1;
    while (n < s.length && s.charCodeAt(n) === 35) n++;
    return n <= 6 && (n === s.length || s.charCodeAt(n) === 32 || s.charCodeAt(n) === 10);
  }
  if (c === 62 /* > */) return true;
  if (s.startsWith('```') || s.startsWith('~~~')) return true;
  if ((c === 45 || c === 42 || c === 43) && s.charCodeAt(1) === 32) {
    // `- ` with content; `---` or `* * *` lines would be thematic breaks / setext underlines.
    const lineEnd = s.indexOf('\n');
    const line = lineEnd < 0 ? s : s.slice(0, lineEnd);
    return !/^[-*+ ]+$/.test(line);
  }
  if (c === 49 /* 1 */ && (s.charCodeAt(1) === 46 || s.charCodeAt(1) === 41) && s.charCodeAt(2) === 32) return true;
  return false;
}

/** Whether the joined output so far ends with a line that nothing can continue: an ATX heading or a closing fence. */
function endsClosedLine(out: readonly string[]): boolean {
  const last = out[out.length - 1] ?? '';
  const nl = last.lastIndexOf('\n');
  const line = nl < 0 ? last : last.slice(nl + 1);
  if (line.charCodeAt(0) === 35) return startsInterruptingBlock(line);
  if (line.length >= 3 && (/^`{3,}$/.test(line) || /^~{3,}$/.test(line))) return nl >= 0;
  return false;
}

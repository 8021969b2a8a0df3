// What of a URL may reach a log line or an error message: never its query, fragment or user
// information (they carry tokens, session ids, a proxy's password). The one owner of that rule:
// error messages that name a URL and every cause written to the operator's log go through it.

/** `url` without query, fragment and credentials; a placeholder when it does not parse. */
export function urlForLog(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    parsed.hash = '';
    return parsed.href;
  } catch {
    return '(unparsable URL)';
  }
}

// An absolute URL quoted in free text (puppeteer's "net::ERR_… at <url>", a fetch error): a scheme
// and "//", up to white space or a quote or bracket that closes it; the punctuation it ends with
// belongs to the text around it, not to the URL.
const QUOTED_URL = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`()[\]{}]+/gi;
const TRAILING_PUNCTUATION = /[.,;:!?]+$/;

/** `text` (an error message, a cause) with every URL it quotes cut to what `urlForLog` keeps. */
export function withoutUrlSecrets(text: string): string {
  // (A quoted URL that does not parse is replaced whole: its query cannot be told from the rest.)
  return text.replace(QUOTED_URL, (quoted) => {
    const end = TRAILING_PUNCTUATION.exec(quoted)?.[0] ?? '';
    return urlForLog(quoted.slice(0, quoted.length - end.length)) + end;
  });
}

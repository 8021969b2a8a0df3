// The link targets of markdown the service made (src/markdown/ writes them absolute against the final
// URL): `[text](url)`, not images `![alt](src)`. A crawl that asked for markdown follows these — the
// links a reader sees, as the page's `<a href>` targets come out of the serializer.

// Link text may hold escapes and one level of brackets (an image inside a link).
const LINK = /(!?)\[(?:[^[\]\\]|\\.|!?\[(?:[^[\]\\]|\\.)*\](?:\([^)]*\))?)*\]\(<?(https?:\/\/[^\s)>]+)>?(?:\s+"[^"]*")?\)/g;

/** The http(s) link targets of `markdown`, each once, in order. */
export function markdownLinks(markdown: string): string[] {
  const seen = new Set<string>();
  for (const match of markdown.matchAll(LINK)) {
    if (match[1] === '!') continue;
    seen.add(match[2]!);
  }
  return [...seen];
}

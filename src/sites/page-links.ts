// The links of a rendered page as a site operation follows them (docs/api.md "Sites"): the targets of
// its `<a href>` elements, absolute against the document's base (its `<base href>`, else the final
// URL), http(s) only, each once, in document order, with the text of its first occurrence; and the
// page's `<link rel=canonical>`. Read from the browser's serialized DOM with linkedom, in the Worker.
import { parseHTML } from 'linkedom';
import { parseHttpUrl } from './url-normal-form.js';

export interface PageLink {
  url: string;
  /** The link's text, whitespace collapsed; undefined when it has none. */
  text?: string;
}

export interface PageLinks {
  links: PageLink[];
  /** The page's canonical URL, absolute, when it names one. */
  canonical?: string;
}

function collapse(text: string | null | undefined): string | undefined {
  const collapsed = (text ?? '').replace(/\s+/g, ' ').trim();
  return collapsed === '' ? undefined : collapsed;
}

/** The links and canonical URL of serialized `html` whose final URL is `finalUrl`. */
export function pageLinks(html: string, finalUrl: string): PageLinks {
  const { document } = parseHTML(html);
  const baseHref = document.querySelector('base[href]')?.getAttribute('href') ?? undefined;
  const base = (baseHref === undefined ? undefined : parseHttpUrl(baseHref, finalUrl)?.href) ?? finalUrl;
  const seen = new Set<string>();
  const links: PageLink[] = [];
  for (const anchor of document.querySelectorAll('a[href]')) {
    const url = parseHttpUrl(anchor.getAttribute('href') ?? '', base);
    if (url === undefined || seen.has(url.href)) continue;
    seen.add(url.href);
    const text = collapse(anchor.textContent) ?? collapse(anchor.getAttribute('aria-label')) ?? collapse(anchor.getAttribute('title'));
    links.push(text === undefined ? { url: url.href } : { url: url.href, text });
  }
  let canonical: string | undefined;
  for (const link of document.querySelectorAll('link[rel][href]')) {
    const rels = (link.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    if (!rels.includes('canonical')) continue;
    canonical = parseHttpUrl(link.getAttribute('href') ?? '', base)?.href;
    break;
  }
  return canonical === undefined ? { links } : { links, canonical };
}

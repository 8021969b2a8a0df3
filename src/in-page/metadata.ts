// The page's metadata (docs/api.md "Main content", include_metadata): read from the live document's
// meta tags, Open Graph, JSON-LD and <html lang>, each field a string or null, URLs absolute. Where
// sources disagree, the one written for sharing wins (Open Graph, then JSON-LD, then plain meta tags
// and <title>): it names the article, where <title> often carries the site's suffix.
import { metadataValue, type PageMetadata } from '../shared/metadata';

type JsonObject = Record<string, unknown>;

/** Types whose JSON-LD object describes the page's own content, by preference. */
const CONTENT_TYPES = /^(Article|NewsArticle|BlogPosting|Report|ScholarlyArticle|TechArticle|Product|Recipe|WebPage|VideoObject)$/;

function metaContent(doc: Document, ...keys: string[]): string | null {
  for (const key of keys) {
    for (const el of doc.querySelectorAll('meta')) {
      const name = el.getAttribute('property') ?? el.getAttribute('name') ?? el.getAttribute('itemprop') ?? el.getAttribute('http-equiv');
      if (name?.toLowerCase() === key) {
        const content = metadataValue(el.getAttribute('content'));
        if (content !== null) return content;
      }
    }
  }
  return null;
}

/** The first of these meta tags that holds a name: a profile's URL (article:author often is one) is none. */
function metaName(doc: Document, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = metaContent(doc, key);
    if (value !== null && !/^https?:\/\//i.test(value)) return value;
  }
  return null;
}

function absolute(url: string | null, doc: Document): string | null {
  if (url === null) return null;
  try {
    return new URL(url, doc.baseURI).href;
  } catch {
    return null;
  }
}

const typesOf = (item: JsonObject): string[] => [item['@type']].flat().filter((t): t is string => typeof t === 'string');

/** Every JSON-LD object of the page, @graph members included; a script that does not parse is skipped. */
function jsonLdObjects(doc: Document): JsonObject[] {
  const found: JsonObject[] = [];
  for (const script of doc.querySelectorAll('script[type="application/ld+json" i]')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(script.textContent ?? '');
    } catch {
      continue;
    }
    for (const item of [parsed].flat()) {
      if (typeof item !== 'object' || item === null) continue;
      const graph = (item as JsonObject)['@graph'];
      for (const member of Array.isArray(graph) ? graph : [item]) {
        if (typeof member === 'object' && member !== null) found.push(member as JsonObject);
      }
    }
  }
  return found;
}

/** A name out of a JSON-LD person, organization or list of them. */
function nameOf(value: unknown): string | null {
  if (typeof value === 'string') return metadataValue(value);
  if (Array.isArray(value)) {
    const names = value.map(nameOf).filter((name): name is string => name !== null);
    return names.length > 0 ? names.join(', ') : null;
  }
  if (typeof value === 'object' && value !== null) return metadataValue((value as JsonObject).name);
  return null;
}

/** A URL out of a JSON-LD image or page reference (a string, an object with url or @id, or a list). */
function urlOf(value: unknown): string | null {
  if (typeof value === 'string') return metadataValue(value);
  if (Array.isArray(value)) return value.length > 0 ? urlOf(value[0]) : null;
  if (typeof value === 'object' && value !== null)
    return metadataValue((value as JsonObject).url) ?? metadataValue((value as JsonObject)['@id']);
  return null;
}

/**
 * The JSON-LD title: its headline, unless only its name is what the page's <title> carries
 * (Wikipedia's JSON-LD puts the article's short description, "Wikimedia list article", in headline).
 */
function jsonLdTitle(ld: JsonObject, docTitle: string): string | null {
  const headline = metadataValue(ld.headline);
  const name = metadataValue(ld.name);
  const inTitle = (text: string) => docTitle.toLowerCase().includes(text.toLowerCase());
  return headline !== null && name !== null && !inTitle(headline) && inTitle(name) ? name : (headline ?? name);
}

/** `en_US` (Open Graph's form) as a language tag. */
const localeTag = (locale: string | null) => (locale === null ? null : locale.replace('_', '-'));

export function pageMetadata(doc: Document): PageMetadata {
  const objects = jsonLdObjects(doc);
  const ld = objects.find((item) => typesOf(item).some((type) => CONTENT_TYPES.test(type))) ?? objects[0] ?? {};
  const canonical = doc.querySelector('link[rel~="canonical" i][href]')?.getAttribute('href') ?? null;
  return {
    title: metaContent(doc, 'og:title') ?? jsonLdTitle(ld, doc.title) ?? metaContent(doc, 'twitter:title') ?? metadataValue(doc.title),
    description:
      metaContent(doc, 'og:description') ?? metadataValue(ld.description) ?? metaContent(doc, 'description', 'twitter:description'),
    language:
      metadataValue(doc.documentElement?.getAttribute('lang')) ??
      metaContent(doc, 'content-language') ??
      localeTag(metaContent(doc, 'og:locale')) ??
      metadataValue(ld.inLanguage),
    canonical_url: absolute(metadataValue(canonical) ?? metaContent(doc, 'og:url') ?? urlOf(ld.url), doc),
    site_name: metaContent(doc, 'og:site_name') ?? nameOf(ld.publisher) ?? metaContent(doc, 'application-name'),
    // article:author is often a link to a profile, so it comes after the names, and a link is skipped.
    author: nameOf(ld.author) ?? metaName(doc, 'author', 'article:author', 'twitter:creator'),
    published_time:
      metaContent(doc, 'article:published_time') ?? metadataValue(ld.datePublished) ?? metaContent(doc, 'datepublished', 'date'),
    image: absolute(
      metaContent(doc, 'og:image', 'og:image:url', 'og:image:secure_url') ?? urlOf(ld.image) ?? metaContent(doc, 'twitter:image'),
      doc,
    ),
  };
}

// The main content of a page whose article its HTML holds but the browser does not show: content a
// stylesheet hides until a script says the page is ready (a script that never ran to the end: a
// blocked or failed request, a consent wall, a class it never took off). When the page as shown has
// no main content (a reader sees chrome or nothing), the page as its HTML holds it — hidden elements
// copied too — is asked again; an article found there is what a reader would have been shown had the
// scripts finished, and is taken only if the page shows none of it (else the first answer stands:
// what is shown was judged and is not an article).
import type { PageMetadata } from '../../metadata';
import { domBuilder } from './dom-form';
import { normalized } from './extract-dom';
import { mainContentOf } from './main-content';
import type { ReadBounds } from './protocol';
import { readerForm } from './reader-form';
import type { SelectedParts } from './selection';

/** A paragraph at least this long is the article's own text, not a label a page could show anywhere. */
const MIN_PROBE_CHARS = 80;
/** Paragraphs looked at: enough to tell, few enough to stay cheap on a long article. */
const MAX_PROBES = 5;

/** The extract's longest paragraphs (at most MAX_PROBES), as one line each. */
function probes(article: Document): string[] {
  const texts: string[] = [];
  for (const block of article.body.querySelectorAll('p, li, blockquote, dd, td')) {
    const text = normalized(block);
    if (text.length >= MIN_PROBE_CHARS) texts.push(text);
  }
  return texts.sort((a, b) => b.length - a.length).slice(0, MAX_PROBES);
}

/** The article of the page as its HTML holds it, when the page as shown (`shown`, its reader form) holds none of it; else null. */
export function unrenderedArticle(
  source: Document,
  bounds: ReadBounds,
  parts: SelectedParts | undefined,
  shown: Document,
  metadata: PageMetadata,
): Document | null {
  const builder = domBuilder(source);
  readerForm(source, bounds, builder, parts, { unrendered: true });
  const article = mainContentOf(builder.doc, metadata, source.URL);
  if (article === null) return null;
  const found = probes(article);
  if (found.length === 0) return null;
  const shownText = normalized(shown.body);
  return found.some((text) => shownText.includes(text)) ? null : article;
}

// The main content of a reader form (docs/api.md "Main content", only_main_content): the article,
// documentation body or post, without the page's navigation, footers, sidebars and lists around it.
// Mozilla's Readability (Firefox's reader view) picks it, working on a copy of the reader form, so
// it only ever sees what the browser renders; the result goes to the same serializer as whole pages.
// When no main content can be told apart (a home page of link lists, a search result list, a
// product grid) or the extract is implausibly small, there is none, and the caller sends the page.
import type { PageMetadata } from '../shared/metadata';
import { dropNonArticle } from './extract-cleanup';
import { clearFontSizes } from './font-size';
import { holdsTitleLink, linkDensity, siblingGroups, visibleLength } from './extract-dom';
import { articleHeading } from './heading';
import { readabilityArticle } from './readability-article';
import { dropRepeatedHeading } from './extract-headings';
import { type Extractor, isQuestioned, secondOpinion } from './second-opinion';
import { seriesOf } from './series';
import { titleBlockArticle } from './title-block';

/** An extract with less text than this is not taken for the page's main content. */
export const MIN_MAIN_TEXT = 250;
/** An extract whose text is mostly link text is a list of links (a home page, results), not content. */
export const MAX_LINK_DENSITY = 0.5;

/** Items of a list page: at least this many siblings of one kind, most of them holding a link. */
export const MIN_LIST_ITEMS = 5;
const LINKED_ITEM_SHARE = 0.6;
/** …and holding at least this share of the extract's text. */
const LIST_TEXT_SHARE = 0.5;
/**
 * An item counts as linked when its title link is not lost in it: a teaser, a search result or a
 * card is mostly its linked name; a question or an answer in a thread (a post: main
 * content, docs/api.md "Main content") is its own text under a small link to itself ("Timeline",
 * "Permalink") or to its author.
 */
const MIN_ITEM_LINK_DENSITY = 0.1;
const isLinkedItem = (item: Element) => holdsTitleLink(item) && linkDensity(item) >= MIN_ITEM_LINK_DENSITY;

const TABLE_PARTS = new Set(['table', 'thead', 'tbody', 'tfoot']);

/**
 * Whether the extract is a list of linked items — search results, a product grid, teasers — which
 * an article scorer happily takes for content: a group of sibling elements of one kind (tag and
 * class), at least MIN_LIST_ITEMS, most of them holding a link as their title, that holds most of
 * the text.
 */
function isListOfLinkedItems(root: Element): boolean {
  const total = visibleLength(root);
  if (total === 0) return false;
  for (const parent of [root, ...root.querySelectorAll('*')]) {
    // A table's rows are records (a list of films, a schedule, a price list): data, not teasers.
    if (TABLE_PARTS.has(parent.localName)) continue;
    for (const items of siblingGroups(parent)) {
      if (items.length < MIN_LIST_ITEMS) continue;
      const linked = items.filter(isLinkedItem).length;
      const text = items.reduce((sum, item) => sum + visibleLength(item), 0);
      if (linked >= LINKED_ITEM_SHARE * items.length && text >= LIST_TEXT_SHARE * total) return true;
    }
  }
  return false;
}

/** Whether an extract is links rather than content: mostly link text, or a list of linked items. */
function isLinkList(content: Element): boolean {
  return linkDensity(content) > MAX_LINK_DENSITY || isListOfLinkedItems(content);
}

/**
 * The extract, cleaned (extract-cleanup.ts): Readability's pick, or the article beside the page's
 * title when the pick lies elsewhere (title-block.ts). A block beside the title may hold the page's
 * own link lists and teasers, so one that reads as links is judged again once cleaned, and taken if
 * it still holds more text than the pick.
 */
function cleanedExtract(form: Document, pick: Element, heading: string | null): Element {
  const cleaned = (extract: Element) => {
    dropNonArticle(extract, heading);
    return extract;
  };
  const beside = heading ? titleBlockArticle(form, pick, heading) : null;
  if (beside === null) return cleaned(pick);
  if (!isLinkList(beside)) return cleaned(beside);
  return !isLinkList(cleaned(beside)) && visibleLength(beside) > visibleLength(pick) ? beside : cleaned(pick);
}

/** The main content as the extraction leaves it, and the title it settled on: what `mainContentOf` dresses as a document. */
export interface MainExtract {
  /** The extract, cleaned; it still carries the marks the form's copies had (font sizes included), unless `fromMarkup`. */
  content: Element;
  heading: string | null;
  /** The content is the second opinion's (second-opinion.ts), parsed from its markup: none of the form's marks are on it. */
  fromMarkup: boolean;
  /** Ours holds so little of what the page shows that a second opinion is asked before it is taken (`settledExtract`). */
  questioned: boolean;
}

/**
 * Our own extraction of the reader form, not yet a document of its own; null when there is none.
 * When it is `questioned`, `settledExtract` asks the second opinion before it stands.
 */
export function ourExtract(form: Document, metadata: PageMetadata, pageUrl: string): MainExtract | null {
  // Readability takes the document apart; the reader form stays whole for the fallback and the
  // second opinion, without the font sizes only the extraction reads. The article beside its title
  // is taken from the form, so the small-print rule does not run on it, by choice: there (a
  // product's sheet, a service page) text set smaller is often the content itself
  // (docs/main-content.md, "Small print").
  const copy = form.cloneNode(true) as Document;
  clearFontSizes(form.documentElement);
  const article = readabilityArticle(copy);
  const content = article?.content as Element | null | undefined;
  if (!article || !content || (article.length ?? 0) < MIN_MAIN_TEXT) return null;
  if (isLinkList(content)) return null;
  // The title written for sharing (Open Graph, JSON-LD) rarely carries the site's name, as <title> does.
  const heading = (metadata.title === null ? article.title : articleHeading(metadata.title, metadata, pageUrl)) ?? null;
  // Where Readability kept one post of a thread, every post of it (series.ts).
  const ours = cleanedExtract(form, seriesOf(form, content) ?? content, heading);
  return { content: ours, heading, fromMarkup: false, questioned: isQuestioned(form, ours) };
}

/**
 * The main content as it stands: ours, or where ours is questioned, the second opinion's when it
 * reads as the content ours cut (second-opinion.ts), without a block repeating the title.
 * `extractor` is the second extractor's code, which a questioned extract needs.
 */
export function settledExtract(form: Document, ours: MainExtract, pageUrl: string, extractor: Extractor | undefined): MainExtract {
  if (!ours.questioned) return ours;
  if (extractor === undefined) throw new Error('a questioned extract needs the second extractor');
  const other = secondOpinion(form, ours.content, pageUrl, extractor);
  if (other === null) return { ...ours, questioned: false };
  if (ours.heading) dropRepeatedHeading(other, ours.heading);
  return { content: other, heading: ours.heading, fromMarkup: true, questioned: false };
}

/** The main content as its own document (`doc`), and whether it was parsed from a second opinion's markup. */
export interface MainContent {
  doc: Document;
  fromMarkup: boolean;
}

/**
 * A new inert document holding the title (the page's metadata title without the site's name, else
 * the one Readability settles on) as a level-1 heading and the settled main content.
 */
export function mainContentOf(form: Document, extract: MainExtract): MainContent {
  const { content, heading } = extract;
  clearFontSizes(content);
  const doc = form.implementation.createHTMLDocument(heading ?? form.title);
  for (const base of form.querySelectorAll('head > base')) doc.head.append(doc.importNode(base, true));
  const lang = form.documentElement.getAttribute('lang');
  if (lang) doc.documentElement.setAttribute('lang', lang);
  if (heading) doc.body.append(Object.assign(doc.createElement('h1'), { textContent: heading }));
  doc.body.append(doc.importNode(content, true));
  return { doc, fromMarkup: extract.fromMarkup };
}

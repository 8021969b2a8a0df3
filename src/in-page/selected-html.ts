// html output of selected parts (docs/api.md "Selecting parts"). The DOM is written by our own walk,
// not outerHTML, because excluded elements must be left out without touching the page's DOM (taking
// them out and putting them back would run the page's custom-element callbacks mid-read):
// - exclude_selectors alone: the whole document, as html-form.ts writes it (doctype, open shadow
//   roots as declarative shadow DOM), less every excluded element;
// - include_selectors: the outermost matches in document order (shadow roots searched too), each
//   with what is inside it less what is excluded, in a minimal document with the page's title; their
//   links and images made absolute, since the document they land in has no base.
// The walk keeps its own stack: a hostile page can nest elements as deep as it likes.
import { doctypeOf } from './html-form';
import type { SelectedParts } from './selection';

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
/** Elements whose text is written as it is (HTML's serialization: no escapes inside them). */
const RAW_TEXT = new Set(['style', 'script', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext', 'noscript']);
/** Attributes holding one URL, made absolute in an include document. */
const URL_ATTRIBUTES = new Set(['href', 'src', 'poster', 'action', 'cite']);

const escapeText = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/\u00a0/g, '&nbsp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
// Chromium escapes < and > in attribute values too (as HTML's serialization now says).
const escapeAttribute = (value: string) =>
  value
    .replace(/&/g, '&amp;')
    .replace(/\u00a0/g, '&nbsp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

function absolute(value: string, base: string): string {
  try {
    return new URL(value, base).href;
  } catch {
    return value;
  }
}

function attributeValue(el: Element, attr: Attr, absoluteUrls: boolean): string {
  if (!absoluteUrls) return attr.value;
  if (URL_ATTRIBUTES.has(attr.name)) return absolute(attr.value, el.baseURI);
  if (attr.name === 'srcset') {
    return attr.value
      .split(',')
      .map((candidate) => candidate.trim().replace(/^\S+/, (url) => absolute(url, el.baseURI)))
      .join(', ');
  }
  return attr.value;
}

function startTag(el: Element, absoluteUrls: boolean): string {
  let out = `<${el.localName}`;
  for (const attr of el.attributes) out += ` ${attr.name}="${escapeAttribute(attributeValue(el, attr, absoluteUrls))}"`;
  return `${out}>`;
}

/** `root` written as outerHTML does (its shadow roots as declarative shadow DOM), less the excluded elements. */
function writeTree(root: Element, excluded: ReadonlySet<Element>, absoluteUrls: boolean): string {
  const out: string[] = [];
  const stack: (Node | string)[] = [root];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    if (item.nodeType === Node.TEXT_NODE || item.nodeType === Node.CDATA_SECTION_NODE) {
      const parent = item.parentElement?.localName ?? '';
      out.push(RAW_TEXT.has(parent) ? (item as CharacterData).data : escapeText((item as CharacterData).data));
      continue;
    }
    if (item.nodeType === Node.COMMENT_NODE) {
      out.push(`<!--${(item as Comment).data}-->`);
      continue;
    }
    if (item.nodeType !== Node.ELEMENT_NODE) continue;
    const el = item as Element;
    if (excluded.has(el)) continue;
    out.push(startTag(el, absoluteUrls));
    if (VOID.has(el.localName)) continue;
    stack.push(`</${el.localName}>`);
    const from = el.localName === 'template' ? (el as HTMLTemplateElement).content : el;
    for (let child = from.lastChild; child !== null; child = child.previousSibling) stack.push(child);
    const shadow = el.shadowRoot;
    if (shadow !== null) {
      stack.push('</template>');
      for (let child = shadow.lastChild; child !== null; child = child.previousSibling) stack.push(child);
      stack.push('<template shadowrootmode="open">');
    }
  }
  return out.join('');
}

/** The outermost included elements that no excluded element holds, in document order, shadow roots searched. */
function outermostMatches(doc: Document, parts: SelectedParts): Element[] {
  const matches: Element[] = [];
  const stack: Node[] = doc.documentElement === null ? [] : [doc.documentElement];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) continue;
    if (node.nodeType === Node.ELEMENT_NODE) {
      const el = node as Element;
      if (parts.excluded.has(el)) continue;
      if (parts.included?.has(el)) {
        matches.push(el);
        continue;
      }
    }
    for (let child = node.lastChild; child !== null; child = child.previousSibling) stack.push(child);
    const shadow = (node as Element).shadowRoot;
    if (shadow) stack.push(shadow);
  }
  return matches;
}

export function selectedHtml(doc: Document, parts: SelectedParts): string {
  if (parts.included === null) {
    return doc.documentElement === null ? doctypeOf(doc) : doctypeOf(doc) + writeTree(doc.documentElement, parts.excluded, false);
  }
  const body = outermostMatches(doc, parts)
    .map((match) => writeTree(match, parts.excluded, true))
    .join('\n');
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeText(doc.title)}</title></head><body>${body}</body></html>`;
}

// What the read tells of a page that may be a bot wall (docs/api.md "Blocked pages"): the markers of
// src/blocked/markers.ts the document shows, and, only then, how much else it shows. A document of
// more than MAX_WALL_ELEMENTS elements is no wall and is not looked into. Each part of a marker's
// selector starts with a tag, an id or a class name, and only the elements under it are matched
// (the page's scripts, its frames, one element by id, a class's elements), not every element of
// the page against every selector. An ordinary page shows none and sends nothing; the text is
// measured (innerText, a layout read) only on a page that shows one.
import { CAPTCHA_WIDGETS, MARKERS, MAX_WALL_ELEMENTS, type MarkerId } from '../blocked/markers';
import type { WallSignals } from '../blocked/verdict';

const MARKED = Object.entries(MARKERS).map(([id, selector]) => [id, selector.split(',')] as [MarkerId, string[]]);
/** Inputs a person types into (`type` reads "text" when none is set); buttons, check boxes and hidden ones ask nothing of the kind. */
const TYPED_INPUTS = /^(text|email|password|search|tel|url|number)$/;
/** Same-origin frames looked into at most (a wall holds one or two). */
const MAX_FRAMES = 10;

const isShown = (element: Element) => element.checkVisibility({ visibilityProperty: true });

/** The elements a selector part can match: those under the tag, id or class name it starts with. */
function candidates(doc: Document, part: string): Iterable<Element> {
  const [, sigil, name = ''] = /^([#.]?)([\w-]+)/.exec(part) ?? [];
  if (sigil === '#') {
    const element = doc.getElementById(name);
    return element === null ? [] : [element];
  }
  return sigil === '.' ? doc.getElementsByClassName(name) : doc.getElementsByTagName(name);
}

function shows(doc: Document, [id, parts]: [MarkerId, string[]]): boolean {
  for (const part of parts) {
    for (const element of candidates(doc, part)) {
      if (element.matches(part) && (!CAPTCHA_WIDGETS.includes(id) || isShown(element))) return true;
    }
  }
  return false;
}

function markersIn(doc: Document): MarkerId[] {
  return MARKED.filter((marked) => shows(doc, marked)).map(([id]) => id);
}

/** The markers shown in the documents of the page's same-origin frames (a cross-origin one cannot be looked into). */
function frameMarkers(doc: Document): MarkerId[] {
  const found = new Set<MarkerId>();
  for (const frame of [...doc.getElementsByTagName('iframe')].slice(0, MAX_FRAMES)) {
    // null for a cross-origin frame.
    const inner = frame.contentDocument;
    if (inner !== null) for (const id of markersIn(inner)) found.add(id);
  }
  return [...found];
}

/** The signals of a page that shows a marker; undefined for one that shows none (an ordinary page). */
export function wallSignals(doc: Document): WallSignals | undefined {
  if (doc.getElementsByTagName('*').length > MAX_WALL_ELEMENTS) return undefined;
  const markers = markersIn(doc);
  if (markers.length === 0) return undefined;
  return {
    markers,
    frameMarkers: frameMarkers(doc),
    // biome-ignore lint/performance/useDomNodeTextContent: the text a person sees is what counts (not a script's, a noscript's or a hidden element's).
    textLength: (doc.body?.innerText ?? '').replace(/\s+/g, ' ').trim().length,
    formFields: [...doc.querySelectorAll('input,textarea,select')].filter(
      (field) => (field.localName !== 'input' || TYPED_INPUTS.test((field as HTMLInputElement).type)) && isShown(field),
    ).length,
  };
}

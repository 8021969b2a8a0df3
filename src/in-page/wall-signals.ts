// What the read tells of a page that may be a bot wall (docs/api.md "Blocked pages"): the markers of
// src/blocked/markers.ts the document shows, and, only then, how much else it shows. An ordinary
// page pays one querySelector over the union of the markers and sends nothing; the text is measured
// (innerText, a layout read) only on a page that shows a marker.
import { CAPTCHA_WIDGETS, MARKERS, type MarkerId } from '../blocked/markers';
import type { WallSignals } from '../blocked/verdict';

const MARKED = Object.entries(MARKERS) as [MarkerId, string][];
const ANY_MARKER = Object.values(MARKERS).join(',');
/** Inputs a person types into (`type` reads "text" when none is set); buttons, check boxes and hidden ones ask nothing of the kind. */
const TYPED_INPUTS = new Set(['text', 'email', 'password', 'search', 'tel', 'url', 'number']);
/** Same-origin frames looked into at most (a wall holds one or two). */
const MAX_FRAMES = 10;

const isShown = (element: Element) => element.checkVisibility({ visibilityProperty: true });

function shows(doc: Document, [id, selector]: [MarkerId, string]): boolean {
  for (const element of doc.querySelectorAll(selector)) if (!CAPTCHA_WIDGETS.includes(id) || isShown(element)) return true;
  return false;
}

function markersIn(doc: Document): MarkerId[] {
  if (doc.querySelector(ANY_MARKER) === null) return [];
  return MARKED.filter((marked) => shows(doc, marked)).map(([id]) => id);
}

/** The markers shown in the documents of the page's same-origin frames (a cross-origin one cannot be looked into). */
function frameMarkers(doc: Document): MarkerId[] {
  const found = new Set<MarkerId>();
  for (const frame of [...doc.querySelectorAll('iframe')].slice(0, MAX_FRAMES)) {
    // null for a cross-origin frame.
    const inner = frame.contentDocument;
    if (inner !== null) for (const id of markersIn(inner)) found.add(id);
  }
  return [...found];
}

/** The signals of a page that shows a marker; undefined for one that shows none (an ordinary page). */
export function wallSignals(doc: Document): WallSignals | undefined {
  const markers = markersIn(doc);
  if (markers.length === 0) return undefined;
  return {
    markers,
    frameMarkers: frameMarkers(doc),
    // biome-ignore lint/performance/useDomNodeTextContent: the text a person sees is what counts (not a script's, a noscript's or a hidden element's).
    textLength: (doc.body?.innerText ?? '').replace(/\s+/g, ' ').trim().length,
    formFields: [...doc.querySelectorAll('input,textarea,select')].filter(
      (field) => (field.localName !== 'input' || TYPED_INPUTS.has((field as HTMLInputElement).type)) && isShown(field),
    ).length,
  };
}

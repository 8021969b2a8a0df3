// Whether an element matching a selector is rendered (docs/api.md "Waiting", wait_for_selector): its box
// has a width and a height and it is neither display: none (itself or an ancestor) nor
// visibility: hidden; searched in the document and in every open shadow root below it.
import { openShadowRoots } from './open-shadow-roots';

function isRendered(element: Element): boolean {
  const box = element.getBoundingClientRect();
  if (box.width <= 0 || box.height <= 0) return false;
  return element.checkVisibility({ visibilityProperty: true });
}

/** The first rendered match, in the document, else in its open shadow roots; null when none is rendered. */
export function firstRenderedMatch(root: Document, selector: string): Element | null {
  for (const element of root.querySelectorAll(selector)) if (isRendered(element)) return element;
  for (const shadow of openShadowRoots(root)) {
    for (const element of shadow.querySelectorAll(selector)) if (isRendered(element)) return element;
  }
  return null;
}

export function renderedMatch(root: Document, selector: string): boolean {
  return firstRenderedMatch(root, selector) !== null;
}

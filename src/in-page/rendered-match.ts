// Whether an element matching a selector is rendered (docs/api.md "Waiting", wait_for_selector): its box
// has a width and a height and it is neither display: none (itself or an ancestor) nor
// visibility: hidden; searched in the document and in every open shadow root below it.
import { openShadowRoots } from './open-shadow-roots';

function isRendered(element: Element): boolean {
  const box = element.getBoundingClientRect();
  if (box.width <= 0 || box.height <= 0) return false;
  return element.checkVisibility({ visibilityProperty: true });
}

export function renderedMatch(root: Document, selector: string): boolean {
  for (const element of root.querySelectorAll(selector)) if (isRendered(element)) return true;
  for (const shadow of openShadowRoots(root)) {
    for (const element of shadow.querySelectorAll(selector)) if (isRendered(element)) return true;
  }
  return false;
}

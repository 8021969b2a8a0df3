// The area a screenshot covers (docs/api.md "Links, images and screenshots"), in document CSS px:
// the viewport as it stands, the whole scrollable page, or the whole box of the first rendered
// element matching a selector (in open shadow roots too).
import type { ScreenshotArea } from './protocol';
import { firstRenderedMatch } from './rendered-match';

export function screenshotArea(fullPage: boolean, selector: string | undefined): ScreenshotArea | null {
  const root = document.documentElement;
  const scale = window.devicePixelRatio || 1;
  const pageHeight = Math.max(root.scrollHeight, document.body?.scrollHeight ?? 0);
  const viewport = { x: window.scrollX, y: window.scrollY, width: root.clientWidth || window.innerWidth, height: window.innerHeight };
  if (selector !== undefined) {
    const element = firstRenderedMatch(document, selector);
    if (element === null) return null;
    const box = element.getBoundingClientRect();
    const { scrollX, scrollY } = window;
    return { x: box.left + scrollX, y: box.top + scrollY, width: box.width, height: box.height, scale, pageHeight, viewport };
  }
  if (fullPage) {
    const width = Math.max(root.scrollWidth, document.body?.scrollWidth ?? 0, window.innerWidth);
    return { x: 0, y: 0, width, height: pageHeight, scale, pageHeight, viewport };
  }
  return { ...viewport, scale, pageHeight, viewport };
}

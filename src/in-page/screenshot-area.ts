// The area a screenshot covers (docs/api.md "Links, images and screenshots"), in document CSS px:
// the viewport as it stands, the whole scrollable page, or the whole box of the first rendered
// element matching a selector (in open shadow roots too).
import type { ScreenshotArea } from './protocol';
import { firstRenderedMatch } from './rendered-match';

export function screenshotArea(fullPage: boolean, selector: string | undefined): ScreenshotArea | null {
  const root = document.documentElement;
  const scale = window.devicePixelRatio || 1;
  const pageHeight = Math.max(root.scrollHeight, document.body?.scrollHeight ?? 0);
  if (selector !== undefined) {
    const element = firstRenderedMatch(document, selector);
    if (element === null) return null;
    const box = element.getBoundingClientRect();
    return { x: box.left + window.scrollX, y: box.top + window.scrollY, width: box.width, height: box.height, scale, pageHeight };
  }
  if (fullPage) {
    const width = Math.max(root.scrollWidth, document.body?.scrollWidth ?? 0, window.innerWidth);
    return { x: 0, y: 0, width, height: pageHeight, scale, pageHeight };
  }
  return {
    x: window.scrollX,
    y: window.scrollY,
    width: root.clientWidth || window.innerWidth,
    height: window.innerHeight,
    scale,
    pageHeight,
  };
}

// One step of `scroll: true` (docs/api.md "Waiting"): the document scrolled down by one viewport, and a
// reading of where it stands. The scroll comes from the isolated world but is the page's own: its
// scroll events and intersection observers see it as a reader's.

import type { ScrollReading } from './protocol';

function scroller(): Element {
  return document.scrollingElement ?? document.documentElement;
}

export function scrollReading(): ScrollReading {
  const element = scroller();
  const height = element.scrollHeight;
  return { atBottom: element.scrollTop + window.innerHeight >= height - 1, height };
}

/** Longest wait for the two frames after a scroll (a page that renders no frames still moves on). */
const FRAMES_TIMEOUT_MS = 100;

/**
 * Scrolls one viewport down and resolves after two frames, when the page has had its scroll events and
 * its observers' callbacks (which start the loads a step then waits for).
 */
export function scrollOneViewport(): Promise<void> {
  window.scrollBy(0, window.innerHeight);
  return new Promise((resolve) => {
    requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
    setTimeout(resolve, FRAMES_TIMEOUT_MS);
  });
}

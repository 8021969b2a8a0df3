// Fixture routes of lazy loaders shaped as pages shape them (docs/api.md "Waiting": the page is loaded
// in view): each image sits below the fold with its real source in data-src, and its loader swaps in
// that source with a query of its own (`?w=800`) once an IntersectionObserver says it is in view. Each
// case varies one thing: thresholds, a root element with a margin, when the observer is made or the
// element observed, which constructor made it, and an element not laid out when first observed.
// Served by fixture-server.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';

type Handler = (url: URL, req: IncomingMessage, res: ServerResponse) => void;

const TALL = '<div style="height: 4000px">spacer far taller than the viewport</div>';

/** The loader's own URL for an image: its data-src with the query the loader adds. */
export const LOADER_QUERY = '?w=800';

/** The cases of /lazy/shapes, by name: what the image's loader does differently. */
export const LAZY_SHAPES = [
  'plain',
  'half-threshold',
  'full-threshold',
  'root-with-margin',
  'ratio-above-zero',
  'made-after-load',
  'observed-at-dom-ready',
  'saved-constructor',
  'frame-constructor',
  'subclass',
  'hidden-at-first',
  'zero-size-at-first',
  'second-observer',
  'in-frame',
  'in-cross-origin-frame',
] as const;

const image = (name: string, style = '') =>
  `<img id="${name}" alt="Case ${name}" src="/lazy/placeholder.gif" data-src="/lazy/${name}.jpg"${style}>`;

/** A loader: swaps in the real source when `accept(entry)` holds, then stops observing the image. */
const LOADER = `function loader(accept) {
  return (entries, observer) => {
    for (const entry of entries) {
      if (!accept(entry)) continue;
      entry.target.src = entry.target.dataset.src + ${JSON.stringify(LOADER_QUERY)};
      observer.unobserve(entry.target);
    }
  };
}
const intersecting = (entry) => entry.isIntersecting;`;

/** A frame's document whose one image is below its fold, with its loader. */
const frameDocument = (name: string) => `<!doctype html><body>${TALL}${image(name)}<script>${LOADER}
new IntersectionObserver(loader(intersecting)).observe(document.getElementById('${name}'));</script></body>`;

const shapesPage = (port: number | undefined) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lazy shapes</title>
<script>
  // Saved before the page's other scripts run, as bundles that keep their own reference do.
  const SavedObserver = window.IntersectionObserver;
  ${LOADER}
  document.addEventListener('DOMContentLoaded', () => {
    new IntersectionObserver(loader(intersecting)).observe(document.getElementById('observed-at-dom-ready'));
  });
</script></head><body><h1>Lazy shapes</h1>${TALL}
${image('plain')}
${image('half-threshold')}
${image('full-threshold')}
<div id="scroller" style="height: 100px; overflow: auto">${TALL}${image('root-with-margin')}</div>
${image('ratio-above-zero')}
${image('made-after-load')}
${image('observed-at-dom-ready')}
${image('saved-constructor')}
${image('frame-constructor')}
${image('subclass')}
${image('hidden-at-first', ' style="display: none"')}
${image('zero-size-at-first', ' style="width: 0; height: 0"')}
${image('second-observer')}
<iframe id="frame" srcdoc="${frameDocument('in-frame').replaceAll('&', '&amp;').replaceAll('"', '&quot;')}"></iframe>
<iframe id="cross-origin-frame" src="http://localhost:${port}/lazy/frame"></iframe>
<script>
  const byId = (id) => document.getElementById(id);
  new IntersectionObserver(loader(intersecting)).observe(byId('plain'));
  new IntersectionObserver(loader((entry) => entry.intersectionRatio >= 0.5), { threshold: [0.5] }).observe(byId('half-threshold'));
  new IntersectionObserver(loader((entry) => entry.intersectionRatio >= 1), { threshold: 1.0 }).observe(byId('full-threshold'));
  new IntersectionObserver(loader((entry) => entry.intersectionRatio > 0), { root: byId('scroller'), rootMargin: '200px' }).observe(byId('root-with-margin'));
  new IntersectionObserver(loader((entry) => entry.intersectionRatio > 0)).observe(byId('ratio-above-zero'));
  addEventListener('load', () => setTimeout(() => {
    new IntersectionObserver(loader(intersecting)).observe(byId('made-after-load'));
  }, 100));
  new SavedObserver(loader(intersecting)).observe(byId('saved-constructor'));
  // A blank frame's own constructor, as scripts reach for an untouched one.
  const blank = document.createElement('iframe');
  blank.style.display = 'none';
  document.body.append(blank);
  new blank.contentWindow.IntersectionObserver(loader(intersecting)).observe(byId('frame-constructor'));
  class Tracked extends IntersectionObserver {}
  new Tracked(loader(intersecting)).observe(byId('subclass'));
  new IntersectionObserver(loader(intersecting)).observe(byId('hidden-at-first'));
  setTimeout(() => { byId('hidden-at-first').style.display = ''; }, 300);
  new IntersectionObserver(loader((entry) => entry.intersectionRatio > 0)).observe(byId('zero-size-at-first'));
  // An impression tracker that watches every image first, and keeps watching.
  const tracker = new IntersectionObserver(() => {});
  for (const img of document.images) tracker.observe(img);
  new IntersectionObserver(loader(intersecting), { rootMargin: '200px' }).observe(byId('second-observer'));
</script></body></html>`;

export const lazyRoutes: Record<string, Handler> = {
  // The cross-origin frame is served under localhost against the page's 127.0.0.1: another site,
  // so another renderer process, which gets the preload as it attaches.
  '/lazy/shapes': (_url, req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(shapesPage(req.socket.localPort));
  },
  '/lazy/frame': (_url, _req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(frameDocument('in-cross-origin-frame'));
  },
};

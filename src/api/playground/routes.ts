// The playground: GET / serves a small page (no token needed to load it) that calls our own
// POST /api/fetch from the browser, and /playground/* serves its script, style and the bundled
// markdown-it. Everything ships inside the Worker (imported as text, see the `?raw` rule in
// wrangler.toml), so the page needs no CDN and its CSP can allow nothing but this origin.
import { Hono } from 'hono';
// The ES-module browser build: self-contained, imported by app.js as ./markdown-it.js.
import MARKDOWN_IT_JS from 'markdown-it/browser?raw';
import type { AppEnv } from '../app-env.js';
import APP_JS from './app.js?raw';
import CRAWL_JS from './crawl.js?raw';
import DOM_JS from './dom.js?raw';
import ICON_SVG from './icon.svg?raw';
import PAGE_HTML from './index.html?raw';
import STYLE_CSS from './style.css?raw';

/**
 * Nothing inline and nothing from elsewhere: scripts and styles are files of this origin, fetches go
 * to this origin only (the token never leaves it), forms cannot submit anywhere (a form submitted
 * without its script would put the token in a URL), and nobody may frame the page. The preview
 * iframe's srcdoc inherits this policy on top of its own sandbox.
 */
export const PLAYGROUND_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  // blob: only for the screenshot, which the page's own script makes a URL of from the API's answer.
  "img-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const ASSETS: Record<string, { body: string; type: string }> = {
  'app.js': { body: APP_JS, type: 'text/javascript; charset=utf-8' },
  'crawl.js': { body: CRAWL_JS, type: 'text/javascript; charset=utf-8' },
  'dom.js': { body: DOM_JS, type: 'text/javascript; charset=utf-8' },
  'markdown-it.js': { body: MARKDOWN_IT_JS, type: 'text/javascript; charset=utf-8' },
  'style.css': { body: STYLE_CSS, type: 'text/css; charset=utf-8' },
  'icon.svg': { body: ICON_SVG, type: 'image/svg+xml' },
};

const COMMON_HEADERS = {
  'Content-Security-Policy': PLAYGROUND_CSP,
  'X-Content-Type-Options': 'nosniff',
  // The page URL never carries secrets, but the fetched result may link anywhere.
  'Referrer-Policy': 'no-referrer',
  // Assets are revalidated so a deploy is seen at once; they are small and served from the edge.
  'Cache-Control': 'no-cache',
};

/** Routes of the playground, mounted at the root of the app. */
export function playgroundRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/', (c) => c.body(PAGE_HTML, 200, { ...COMMON_HEADERS, 'Content-Type': 'text/html; charset=utf-8' }));
  for (const [name, asset] of Object.entries(ASSETS)) {
    app.get(`/playground/${name}`, (c) => c.body(asset.body, 200, { ...COMMON_HEADERS, 'Content-Type': asset.type }));
  }
  return app;
}

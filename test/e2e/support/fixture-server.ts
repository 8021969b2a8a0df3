// Loopback HTTP server for the e2e tests' target pages: static fixtures from test/fixtures/pages plus
// routes with controlled timing, status codes, content types and sizes. It records every request
// so tests can assert what the browser asked for.
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { blockedRoutes } from './blocked-routes.js';
import { consentRoutes } from './consent-routes.js';
import { acceptGuardSockets, guardRoutes, isGuardSocket } from './guard-routes.js';
import { pdfRoutes } from './pdf-routes.js';
import { acceptWebSockets, liveRoutes } from './live-routes.js';
import { lazyRoutes } from './lazy-routes.js';
import { visitRoutes } from './visit-routes.js';
import { sitePageRoute, siteRoutes } from './site-routes.js';
import { viewsRoutes } from './views-routes.js';

const PAGES_DIR = fileURLToPath(new URL('../../fixtures/pages/', import.meta.url));

export interface FixtureServer {
  origin: string;
  url(path: string): string;
  /** Paths (with query) requested so far, in order. */
  requests: { path: string; headers: IncomingMessage['headers'] }[];
  close(): Promise<void>;
}

type Handler = (url: URL, req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** Ids /fails-once has failed for (one module-wide set: ids are unique per test). */
const failedOnce = new Set<string>();

function html(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', ...headers });
  res.end(body);
}

/** The port this server answered on, as the request's Host names it (for links to the other host name). */
function portOf(req: IncomingMessage): string {
  return (req.headers.host ?? '').split(':')[1] ?? '';
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
}

function bigPage(bytes: number): string {
  const paragraph = '<p>' + 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(16) + '</p>\n';
  const count = Math.ceil(bytes / paragraph.length);
  return page('Big page', `<h1>Big page</h1>\n${paragraph.repeat(count)}<p id="end">end of big page</p>`);
}

/** A benchmark article whose own timing the page records in the browser (see bench/e2e). */
function benchArticle(url: URL): string {
  const fetchMs = Number(url.searchParams.get('fetch_ms') ?? 300);
  const images = Number(url.searchParams.get('images') ?? 0);
  const imageMs = Number(url.searchParams.get('image_ms') ?? 200);
  const paragraphs = Array.from(
    { length: 40 },
    (_, i) => `<p>Paragraph ${i}: ${'benchmark text with <a href="/link/' + i + '">a link</a> and <em>emphasis</em>. '.repeat(4)}</p>`,
  ).join('\n');
  const imgs = Array.from({ length: images }, (_, i) => `<img src="/bench/image?ms=${imageMs}&i=${i}" alt="image ${i}">`).join('\n');
  return page(
    'Benchmark article',
    `<h1>Benchmark article</h1>
<p id="bench-timing">bench-timing pending</p>
<p id="late">not yet</p>
${imgs}
${paragraphs}
<script>
  // Page-side clock (ms since navigation start): when load fired and when the last response ended.
  const out = document.getElementById('bench-timing');
  let lastEnd = performance.getEntriesByType('navigation')[0]?.responseEnd ?? 0;
  let loadAt = 0;
  const render = () => { out.textContent = 'bench-timing load=' + loadAt.toFixed(1) + ' last-response=' + lastEnd.toFixed(1); };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) lastEnd = Math.max(lastEnd, entry.responseEnd);
    render();
  }).observe({ type: 'resource', buffered: true });
  addEventListener('load', () => { loadAt = performance.now(); render(); });
  document.addEventListener('DOMContentLoaded', () => {
    fetch('/delay?ms=${fetchMs}&body=late%20content').then((r) => r.text()).then((text) => {
      document.getElementById('late').textContent = text;
      lastEnd = Math.max(lastEnd, performance.now());
      render();
    });
  });
  render();
</script>`,
  );
}

// A 1×1 transparent PNG.
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

const routes: Record<string, Handler> = {
  // Hostile and broken targets.
  '/hostile/reset-mid-body': (_url, _req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.write('<!doctype html><html><body><h1>Partial</h1><p>the connection dies after this');
    setTimeout(() => res.socket?.destroy(), 100);
  },
  '/hostile/headers-then-hang': (_url, _req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.flushHeaders();
  },
  '/hostile/redirect-loop': (_url, _req, res) => {
    res.writeHead(302, { Location: '/hostile/redirect-loop' });
    res.end();
  },
  // Refreshes itself at once, forever (meta refresh without a URL reloads the page).
  '/hostile/refresh-self': (_url, _req, res) =>
    html(res, 200, page('Refresh self', '<meta http-equiv="refresh" content="0"><h1>Refreshing</h1><p>again and again</p>')),
  // Two pages that refresh to each other at once, forever.
  '/hostile/refresh-ping': (_url, _req, res) =>
    html(res, 200, page('Ping', '<meta http-equiv="refresh" content="0; url=/hostile/refresh-pong"><h1>Ping</h1>')),
  '/hostile/refresh-pong': (_url, _req, res) =>
    html(res, 200, page('Pong', '<meta http-equiv="refresh" content="0; url=/hostile/refresh-ping"><h1>Pong</h1>')),
  // Sends itself, once loaded, to ?to= (an unreachable URL in the tests).
  '/hostile/navigate-to': (url, _req, res) =>
    html(
      res,
      200,
      page(
        'Leaving',
        `<h1>Leaving</h1><script>addEventListener('load', () => { location.href = ${JSON.stringify(url.searchParams.get('to') ?? '/')}; });</script>`,
      ),
    ),
  // Holds 512 MiB and keeps the network busy: the largest renderer by far, as a page about to run out
  // of memory would be.
  '/hostile/memory-heavy': (_url, _req, res) =>
    html(
      res,
      200,
      page(
        'Memory heavy',
        `<h1>Memory heavy</h1><script>window.held = new Uint8Array(512 * 1024 * 1024).fill(1); setInterval(() => fetch('/delay?ms=100'), 200);</script>`,
      ),
    ),
  // The same memory, then a script that never yields once the page has loaded: a read of the page
  // waits on its renderer, which is where a renderer that runs out of memory while read dies.
  '/hostile/memory-heavy-stuck': (_url, _req, res) =>
    html(
      res,
      200,
      page(
        'Memory heavy, stuck',
        `<h1>Memory heavy, stuck</h1><script>window.held = new Uint8Array(512 * 1024 * 1024).fill(1); addEventListener('load', () => setTimeout(() => { for (;;) {} }, 0));</script>`,
      ),
    ),
  // A script that never yields once the page has loaded: a read of the page never gets its turn.
  '/hostile/never-yields': (_url, _req, res) =>
    html(
      res,
      200,
      page('Never yields', `<h1>Never yields</h1><script>addEventListener('load', () => setTimeout(() => { for (;;) {} }, 0));</script>`),
    ),
  // A page that runs out of memory for real once it has loaded: its script fills the heap until V8
  // gives up and the renderer dies, with a read of the page waiting behind that script.
  '/hostile/out-of-memory': (_url, _req, res) =>
    html(
      res,
      200,
      page(
        'Out of memory',
        `<h1>Out of memory</h1><script>addEventListener('load', () => setTimeout(() => { const held = []; for (let i = 0; ; i++) held.push(new Array(1 << 20).fill(i)); }, 0));</script>`,
      ),
    ),
  // A cross-origin iframe (localhost against 127.0.0.1: another site, so another renderer process)
  // between two paragraphs, and the same again nested inside it when ?nested=1.
  '/reader/cross-origin': (url, req, res) => {
    const port = portOf(req);
    const nested = url.searchParams.get('nested') === '1';
    const frame = nested ? `http://localhost:${port}/reader/cross-origin-inner` : `http://localhost:${port}/pages/reader-frame.html`;
    html(res, 200, page('Cross-origin frame', `<p>Before the frame.</p><iframe src="${frame}"></iframe><p>After the frame.</p>`));
  },
  // A cross-origin frame whose links and image are relative: they resolve against the frame's own URL.
  '/reader/cross-origin-links': (_url, req, res) => {
    const port = portOf(req);
    html(res, 200, page('Frame links', `<p>Top text.</p><iframe src="http://localhost:${port}/reader/widget/frame"></iframe>`));
  },
  '/reader/widget/frame': (_url, _req, res) =>
    html(
      res,
      200,
      page(
        'Widget',
        '<p><a href="more">More from the widget</a> and <a href="/about">about it</a>.</p><img src="pic.png" alt="Widget picture">',
      ),
    ),
  '/reader/cross-origin-inner': (_url, req, res) => {
    const port = portOf(req);
    html(
      res,
      200,
      page('Inner', `<p>Outer cross-origin text.</p><iframe src="http://127.0.0.1:${port}/pages/reader-frame.html"></iframe>`),
    );
  },
  // A page enforcing Trusted Types (no HTML string may become DOM, not even from an isolated world),
  // with a component built by DOM calls, a same-origin iframe whose relative link is relative to the
  // frame's own URL, and a cross-origin iframe.
  '/reader/trusted-types': (_url, req, res) => {
    const port = portOf(req);
    html(
      res,
      200,
      page(
        'Trusted Types',
        `<h1>Trusted Types</h1><tt-card></tt-card><iframe src="/reader/frame-dir/inner"></iframe>` +
          `<iframe src="http://localhost:${port}/pages/reader-frame.html"></iframe><p>Last paragraph.</p>` +
          `<script>customElements.define('tt-card', class extends HTMLElement { constructor() { super(); ` +
          `const p = document.createElement('p'); p.textContent = 'Shadow text under Trusted Types.'; ` +
          `this.attachShadow({ mode: 'open' }).append(p); } });</script>`,
      ),
      { 'Content-Security-Policy': "require-trusted-types-for 'script'; trusted-types 'none'" },
    );
  },
  '/reader/frame-dir/inner': (_url, _req, res) =>
    html(res, 200, page('Inner', '<p>Frame paragraph with <a href="target">a relative link</a>.</p>')),
  // 200 srcdoc iframes, each with one numbered paragraph.
  '/reader/many-frames': (_url, _req, res) =>
    html(
      res,
      200,
      page(
        'Many frames',
        `<h1>Many frames</h1>${Array.from({ length: 200 }, (_, i) => `<iframe srcdoc="<p>Frame number ${i}.</p>"></iframe>`).join('')}`,
      ),
    ),
  // Text with lone surrogates, inserted by script (HTML source cannot carry them).
  '/hostile/lone-surrogates': (_url, _req, res) =>
    html(
      res,
      200,
      page(
        'Surrogates',
        `<h1>Surrogates</h1><p id="s"></p><script>document.getElementById('s').textContent = 'a\\uD800b\\uDC00c';</script>`,
      ),
    ),
  '/hostile/million-nodes': (_url, _req, res) =>
    html(res, 200, page('Million nodes', `<div id="many">${'<b></b>'.repeat(1_000_000)}</div><p>after a million nodes</p>`)),
  '/redirect-to': (url, _req, res) => {
    res.writeHead(302, { Location: url.searchParams.get('url') ?? '/' });
    res.end();
  },
  // A page (to be loaded under a public-looking name) that reaches for loopback in every way it can.
  '/guard/subresources': (_url, req, res) => {
    const loopback = `http://127.0.0.1:${req.socket.localPort}`;
    html(
      res,
      200,
      page(
        'Reaching for loopback',
        `<h1>Public page</h1>
<iframe src="${loopback}/secret-frame"></iframe>
<img src="http://localhost:${req.socket.localPort}/secret-image" alt="x">
<link rel="stylesheet" href="${loopback}/secret-style">
<p id="leak">nothing leaked</p>
<script>
  fetch('${loopback}/secret-data').then((r) => r.text()).then((t) => { document.getElementById('leak').textContent = 'LEAKED ' + t; }).catch(() => {});
  new Image().src = 'http://[::1]:${req.socket.localPort}/secret-beacon';
</script>`,
      ),
    );
  },
  // A page that tries to navigate itself, or a frame, to local files and browser pages.
  '/guard/schemes': (_url, _req, res) =>
    html(
      res,
      200,
      page(
        'Other schemes',
        `<h1>Scheme page</h1>
<iframe src="file:///etc/passwd"></iframe>
<iframe src="view-source:file:///etc/passwd"></iframe>
<script>
  setTimeout(() => { location.href = 'file:///etc/passwd'; }, 50);
  setTimeout(() => { location.href = 'chrome://version'; }, 100);
  setTimeout(() => { location.href = 'view-source:file:///etc/passwd'; }, 150);
</script>`,
      ),
    ),
  '/bench/article': (url, _req, res) => html(res, 200, benchArticle(url), { 'Cache-Control': 'no-store' }),
  // The benchmark article with ?n= same-origin iframes, each a small page of its own.
  '/bench/frames': (url, _req, res) => {
    const frames = Array.from({ length: Number(url.searchParams.get('n') ?? 10) }, (_, i) => `<iframe src="/echo?id=frame-${i}"></iframe>`);
    html(res, 200, benchArticle(new URL('/bench/article?fetch_ms=0', url)).replace('</body>', `${frames.join('')}</body>`), {
      'Cache-Control': 'no-store',
    });
  },
  '/bench/image': (url, _req, res) => {
    setTimeout(
      () => {
        res.writeHead(200, { 'Content-Type': 'image/png', 'Cache-Control': 'no-store' });
        res.end(PIXEL);
      },
      Number(url.searchParams.get('ms') ?? 0),
    );
  },
  '/delay': (url, _req, res) => {
    const ms = Number(url.searchParams.get('ms') ?? 0);
    setTimeout(() => {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' });
      res.end(url.searchParams.get('body') ?? 'ok');
    }, ms);
  },
  // Never answers: an open request that keeps a page from going network-idle.
  '/hang': () => undefined,
  '/slow-doc': (url, _req, res) => {
    const ms = Number(url.searchParams.get('ms') ?? 1000);
    setTimeout(() => html(res, 200, page('Slow document', '<h1>Slow document</h1><p>finally here</p>')), ms);
  },
  '/redirect/1': (_url, _req, res) => {
    res.writeHead(302, { Location: '/redirect/2' });
    res.end();
  },
  '/redirect/2': (_url, _req, res) => {
    res.writeHead(301, { Location: '/redirect/final?from=chain' });
    res.end();
  },
  '/redirect/final': (_url, _req, res) => html(res, 200, page('Final', '<h1>Redirect target</h1>'), { 'X-Fixture': 'final-hop' }),
  '/status/404': (_url, _req, res) => html(res, 404, page('Not here', '<h1>Target says not found</h1>')),
  '/status/500': (_url, _req, res) => html(res, 500, page('Broken', '<h1>Target says server error</h1>')),
  // An error status with no body: Chrome shows its own error page in its place.
  '/status/404-empty': (_url, _req, res) => {
    res.writeHead(404);
    res.end();
  },
  '/status/500-empty': (_url, _req, res) => html(res, 500, ''),
  // A password challenge (HTTP Basic), with the page a browser shows when it is not answered.
  '/basic-auth': (_url, _req, res) =>
    html(res, 401, page('Sign in', '<h1>Sign in required</h1>'), { 'WWW-Authenticate': 'Basic realm="fixture"' }),
  '/basic-auth-in-frame': (url, _req, res) =>
    html(res, 200, page('Framed', `<h1>Outer page</h1><iframe src="/basic-auth?${url.searchParams}"></iframe>`)),
  '/status/204': (_url, _req, res) => {
    res.writeHead(204);
    res.end();
  },
  '/text.txt': (_url, _req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('Plain text line one\n# not a heading\n*not emphasis*\n');
  },
  '/data.json': (_url, _req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ name: 'page-fetch', items: [1, 2, 3], nested: { ok: true } }));
  },
  '/file.pdf': (_url, _req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/pdf' });
    res.end(Buffer.from('%PDF-1.4\n%\xE2\xE3\xCF\xD3\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n', 'latin1'));
  },
  '/photo.png': (_url, _req, res) => {
    res.writeHead(200, { 'Content-Type': 'image/png' });
    res.end(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
  },
  '/archive.zip': (_url, _req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/zip', 'Content-Disposition': 'attachment; filename="a.zip"' });
    res.end(Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]));
  },
  '/big': (url, _req, res) => html(res, 200, bigPage(Number(url.searchParams.get('bytes') ?? 3_000_000))),
  // About 6 million characters that CDP writes as 6-byte escapes (control characters, Cyrillic):
  // some 36 MB on the wire in one message, past what a Worker takes; 6.3 MB as UTF-8.
  '/big-escapes': (_url, _req, res) =>
    html(res, 200, page('Escapes', `<p>${`${'\u0007'.repeat(95)}жжжжж`.repeat(60_000)}</p><p id="end">end of the escapes</p>`)),
  '/set-cookie': (url, req, res) =>
    html(res, 200, page('Set cookie', `<p id="seen">${req.headers.cookie ?? '(no cookie)'}</p>`), {
      'Set-Cookie': `visitor=${url.searchParams.get('value') ?? 'x'}; Path=/; Max-Age=3600`,
    }),
  '/show-cookie': (_url, req, res) => html(res, 200, page('Show cookie', `<p id="seen">${req.headers.cookie ?? '(no cookie)'}</p>`)),
  // A download the first time an id is asked for (502 unsupported_content), a page after: errors must not be stored.
  '/fails-once': (url, _req, res) => {
    const id = url.searchParams.get('id') ?? '';
    if (!failedOnce.has(id)) {
      failedOnce.add(id);
      return routes['/archive.zip']!(url, _req, res);
    }
    html(res, 200, page('Second try', '<h1>Second try</h1>'));
  },
  '/echo': (url, _req, res) => {
    const id = (url.searchParams.get('id') ?? '').replace(/[^\w-]/g, '');
    const ms = Number(url.searchParams.get('ms') ?? 0);
    setTimeout(() => html(res, 200, page(`Echo ${id}`, `<h1>Echo</h1><p id="id">request-${id}</p>`)), ms);
  },
};

async function serveStatic(path: string, res: ServerResponse) {
  const name = path.slice('/pages/'.length);
  if (!/^[\w-]+\.html$/.test(name)) return html(res, 404, page('No', 'no such fixture'));
  try {
    html(res, 200, await readFile(join(PAGES_DIR, name), 'utf8'));
  } catch {
    html(res, 404, page('No', 'no such fixture'));
  }
}

export async function startFixtureServer(): Promise<FixtureServer> {
  const requests: FixtureServer['requests'] = [];
  // Request lines past Node's 16 KB default: a consent frame's URL longer than the consent site-rules cap.
  const server: Server = createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture.invalid');
    requests.push({ path: url.pathname + url.search, headers: req.headers });
    const route =
      routes[url.pathname] ??
      liveRoutes[url.pathname] ??
      consentRoutes[url.pathname] ??
      pdfRoutes[url.pathname] ??
      lazyRoutes[url.pathname] ??
      viewsRoutes[url.pathname] ??
      guardRoutes[url.pathname] ??
      blockedRoutes[url.pathname] ??
      visitRoutes[url.pathname] ??
      siteRoutes[url.pathname] ??
      sitePageRoute(url.pathname);
    const handled = route
      ? route(url, req, res)
      : url.pathname.startsWith('/pages/')
        ? serveStatic(url.pathname, res)
        : html(res, 404, page('No', 'unknown fixture'));
    void Promise.resolve(handled).catch(() => res.destroy());
  });
  // WebSocket handshakes are requests too (the guard's tests count them).
  server.on('upgrade', (req: IncomingMessage) => requests.push({ path: req.url ?? '', headers: req.headers }));
  acceptWebSockets(server, isGuardSocket);
  acceptGuardSockets(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (path) => origin + path,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port with nothing listening on it (for unreachable-target tests). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// Fixture routes of the request controls (docs/api.md "Request controls"): a probe page that shows
// what the server received and what the page's scripts see (user agent, languages, cookies, media
// queries, window size), and asks for assets of its own origin and of another one given in `other`
// so that the tests can read, from each server's record, which requests carried the extra headers.
// Served by fixture-server.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';

type Handler = (url: URL, req: IncomingMessage, res: ServerResponse) => void;

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

const PROBE_SCRIPT = `
  const show = (id, value) => { document.getElementById(id).textContent = String(value); };
  show('ua', navigator.userAgent);
  show('languages', navigator.languages.join(','));
  show('cookies', document.cookie || '(none)');
  show('coarse', matchMedia('(pointer: coarse)').matches);
  show('mobile-width', matchMedia('(max-width: 500px)').matches);
  show('size', innerWidth + 'x' + innerHeight);
  show('dpr', devicePixelRatio);
  show('touch', navigator.maxTouchPoints);
`;

export const visitRoutes: Record<string, Handler> = {
  '/visit/probe': (url, req, res) => {
    const other = url.searchParams.get('other');
    const assets = [
      '<script src="/visit/asset.js?from=own-script"></script>',
      ...(other === null ? [] : [`<script src="${escapeHtml(other)}/visit/asset.js?from=other-script"></script>`]),
    ].join('');
    const fetches = [
      `fetch('/visit/asset.js?from=own-fetch')`,
      ...(other === null ? [] : [`fetch(${JSON.stringify(`${other}/visit/asset.js?from=other-fetch`)})`]),
    ];
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(`<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Visit probe</title>${assets}</head><body>
<p>server-cookie: <span id="server-cookie">${escapeHtml(req.headers.cookie ?? '(none)')}</span></p>
<p>server-ua: <span id="server-ua">${escapeHtml(req.headers['user-agent'] ?? '')}</span></p>
<p>ua: <span id="ua"></span></p><p>languages: <span id="languages"></span></p>
<p>cookies: <span id="cookies"></span></p><p>coarse: <span id="coarse"></span></p>
<p>mobile-width: <span id="mobile-width"></span></p><p>size: <span id="size"></span></p>
<p>dpr: <span id="dpr"></span></p><p>touch: <span id="touch"></span></p>
<script>${PROBE_SCRIPT}${fetches.map((f) => `${f}.then((r) => r.text()).catch(() => undefined);`).join('')}</script>
</body></html>`);
  },
  // A page of `n` scripts of its own origin, for what pausing each request costs (bench/e2e/visit-cost.ts).
  '/visit/many': (url, _req, res) => {
    const n = Math.min(200, Number(url.searchParams.get('n') ?? 40));
    const scripts = Array.from({ length: n }, (_, i) => `<script src="/visit/asset.js?i=${i}"></script>`).join('');
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(
      `<!doctype html><html><head><meta charset="utf-8"><title>Many requests</title>${scripts}</head><body><h1>Many requests</h1></body></html>`,
    );
  },
  '/visit/asset.js': (_url, _req, res) => {
    // Readable from any origin, so the other origin's fetch completes as a page's would.
    res.writeHead(200, { 'Content-Type': 'text/javascript', 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' });
    res.end('void 0;');
  },
};

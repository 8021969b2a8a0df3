// A generated site for the crawl benchmark, served on 127.0.0.1: pages /p/0 … /p/<pages − 1>, each a
// few lines with links to its children (page i to i·fanout + 1 … i·fanout + fanout), its parent and
// the home page, so a crawl meets every page once by a link graph several levels deep and many links
// it has seen already. No robots.txt or sitemap (404: everything allowed).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LinkSite {
  origin: string;
  /** Every page's URL, in breadth-first order (the order a crawl meets them). */
  urls: string[];
  /** Page requests served so far. */
  served(): number;
  close(): Promise<void>;
}

export const FANOUT = 10;

/** The depth of page `index` from the home page. */
export function depthOf(index: number): number {
  let depth = 0;
  for (let i = index; i > 0; i = Math.floor((i - 1) / FANOUT)) depth++;
  return depth;
}

function pageHtml(index: number, pages: number): string {
  const children = Array.from({ length: FANOUT }, (_, k) => index * FANOUT + 1 + k).filter((child) => child < pages);
  const parent = index === 0 ? 0 : Math.floor((index - 1) / FANOUT);
  const links = [...children.map((child) => [child, `Page ${child}`] as const), [parent, 'Up'] as const, [0, 'Home'] as const];
  const items = links.map(([target, text]) => `<li><a href="/p/${target}">${text}</a></li>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${index}</title></head><body><h1>Page ${index}</h1><p>Page ${index} of a generated site of ${pages} pages.</p><ul>${items}</ul></body></html>`;
}

export async function startLinkSite(pages: number): Promise<LinkSite> {
  let served = 0;
  const server = createServer((req, res) => {
    const match = /^\/p\/(\d+)$/.exec(req.url ?? '');
    const index = match === null ? -1 : Number(match[1]);
    if (index < 0 || index >= pages) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
      return;
    }
    served++;
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(pageHtml(index, pages));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    urls: Array.from({ length: pages }, (_, index) => `${origin}/p/${index}`),
    served: () => served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

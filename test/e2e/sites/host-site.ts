// A small site of its own for the crawl tests that turn on one host's answers: a server on
// 127.0.0.1 (its own port, so its own host to a crawl) whose robots.txt answers what the test says,
// whose start page links to `/page/1` … `/page/<pages>` and to the `from-sub` page of its `sub.`
// subdomain, whose pages may hold their answer a while (or never give it), and which logs when each
// request arrived and how many pages were open at once, per host name.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HostSiteOptions {
  /** robots.txt's answer for a host name. */
  robots: (hostname: string) => { status: number; body?: string };
  /** Pages the start page links to. */
  pages: number;
  /** How long each page holds its answer, in ms. */
  pageMs?: number;
  /** Paths whose request is never answered: it stays open until the site closes. */
  silent?: (path: string) => boolean;
}

export interface HostSite {
  port: number;
  /** The URL of `path` under `hostname` (127.0.0.1 unless told). */
  url(path: string, hostname?: string): string;
  /** Every request, in order of arrival: its host name, path and epoch ms. */
  requests: { hostname: string; path: string; at: number }[];
  /** The page requests (not robots.txt, sitemaps or the favicon) of a host name. */
  pageRequests(hostname: string): { path: string; at: number }[];
  /** The most pages of a host name that were answering at once. */
  mostOpen(hostname: string): number;
  close(): Promise<void>;
}

const SITE_FILES = new Set(['/robots.txt', '/sitemap.xml', '/favicon.ico']);

function page(title: string, links: string[]): string {
  const items = links.map((href) => `<li><a href="${href}">${href}</a></li>`).join('');
  return `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><ul>${items}</ul></body></html>`;
}

export async function startHostSite(options: HostSiteOptions): Promise<HostSite> {
  const requests: HostSite['requests'] = [];
  const open = new Map<string, number>();
  const most = new Map<string, number>();
  let port = 0;
  const server: Server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    const hostname = url.hostname;
    requests.push({ hostname, path: url.pathname, at: Date.now() });
    if (url.pathname === '/robots.txt') {
      const answer = options.robots(hostname);
      res.writeHead(answer.status, { 'Content-Type': 'text/plain' }).end(answer.body ?? '');
      return;
    }
    if (SITE_FILES.has(url.pathname)) {
      res.writeHead(404).end();
      return;
    }
    const links =
      url.pathname === '/'
        ? [...Array.from({ length: options.pages }, (_, i) => `/page/${i + 1}`), `http://sub.${hostname}:${port}/from-sub`]
        : [];
    if (options.silent?.(url.pathname)) return;
    open.set(hostname, (open.get(hostname) ?? 0) + 1);
    most.set(hostname, Math.max(most.get(hostname) ?? 0, open.get(hostname)!));
    setTimeout(() => {
      open.set(hostname, open.get(hostname)! - 1);
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page(`Page ${url.pathname}`, links));
    }, options.pageMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path, hostname = '127.0.0.1') => `http://${hostname}:${port}${path}`,
    requests,
    pageRequests: (hostname) =>
      requests.filter((request) => request.hostname === hostname && !SITE_FILES.has(request.path)).map(({ path, at }) => ({ path, at })),
    mostOpen: (hostname) => most.get(hostname) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// A small site for the site operations' e2e tests (docs/api.md "Sites"), under /site/ of the fixture
// server: robots.txt with a PageFetch group (it wins over `*`) and a Sitemap line naming a sitemap
// index, which names a plain sitemap and a gzipped one; pages that link to each other, to a path
// robots.txt disallows, to another host, to a subdomain and into a trap. Served by fixture-server.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

type Handler = (url: URL, req: IncomingMessage, res: ServerResponse) => void;

/** The links of each page of the site, by path; a page links to nothing else. */
export const SITE_PAGES: Record<string, { title: string; links: [string, string][]; canonical?: string }> = {
  '/site/': {
    title: 'Site home',
    links: [
      ['/site/docs/intro', 'Introduction'],
      ['/site/docs/intro#top', 'Intro again'],
      ['/site/docs/api', 'API reference'],
      ['/site/private/hidden', 'Hidden'],
      ['/site/private/open', 'Open private'],
      ['/site/docs/intro?ref=home', 'Intro from home'],
      ['http://localhost:{port}/site/elsewhere', 'Other host'],
      ['http://sub.localhost:{port}/site/sub-page', 'Subdomain'],
      [`/site/${'deep/'.repeat(33)}trap`, 'Trap'],
      ['mailto:someone@example.com', 'Mail'],
    ],
  },
  // Every spelling of the introduction (?ref=home too) names it canonical.
  '/site/docs/intro': { title: 'Introduction', links: [['/site/docs/guide', 'Guide']], canonical: '/site/docs/intro' },
  '/site/docs/api': {
    title: 'API',
    links: [
      ['/site/docs/api/v2', 'Version 2'],
      ['/site/docs/old', 'Old guide'],
    ],
  },
  '/site/docs/guide': { title: 'Guide', links: [] },
  '/site/docs/api/v2': { title: 'API v2', links: [] },
  '/site/private/open': { title: 'Open', links: [] },
  '/site/blog/first': { title: 'First post', links: [] },
  '/site/blog/second': { title: 'Second post', links: [] },
};

const portOf = (req: IncomingMessage) => (req.headers.host ?? '').split(':')[1] ?? '';
const originOf = (req: IncomingMessage) => `http://${req.headers.host ?? ''}`;

function urlset(origin: string, entries: { path: string; title?: string }[]): string {
  const urls = entries.map(({ path, title }) => {
    const news = title === undefined ? '' : `<news:news><news:title>${title}</news:title></news:news>`;
    return `<url><loc>${path.startsWith('http') ? path : origin + path}</loc>${news}</url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
${urls.join('\n')}
</urlset>`;
}

const sitePage: Handler = (url, req, res) => {
  const known = SITE_PAGES[url.pathname];
  if (known === undefined) {
    res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>No</title><p>no such page</p>');
    return;
  }
  const links = known.links.map(([href, text]) => `<li><a href="${href.replace('{port}', portOf(req))}">${text}</a></li>`).join('');
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
  const canonical = known.canonical === undefined ? '' : `<link rel="canonical" href="${known.canonical}">`;
  res.end(
    `<!doctype html><html><head><title>${known.title}</title>${canonical}</head><body><h1>${known.title}</h1><ul>${links}</ul></body></html>`,
  );
};

export const siteRoutes: Record<string, Handler> = {
  '/robots.txt': (_url, req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end(
      [
        'User-agent: *',
        'Disallow: /site/',
        '',
        'User-agent: PageFetch',
        'Disallow: /site/private/',
        'Allow: /site/private/open',
        '',
        `Sitemap: ${originOf(req)}/site/sitemap-index.xml`,
        '',
      ].join('\n'),
    );
  },
  // A page whose connection closes before any answer: the browser cannot fetch it.
  '/site/reset': (_url, req) => {
    req.socket.destroy();
  },
  // An old address of the guide.
  '/site/docs/old': (_url, _req, res) => {
    res.writeHead(301, { Location: '/site/docs/guide' });
    res.end();
  },
  '/site/sitemap-index.xml': (_url, req, res) => {
    const origin = originOf(req);
    res.writeHead(200, { 'Content-Type': 'application/xml' });
    res.end(`<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>${origin}/site/sitemap-pages.xml</loc></sitemap>
<sitemap><loc>${origin}/site/sitemap-blog.xml.gz</loc></sitemap>
</sitemapindex>`);
  },
  '/site/sitemap-pages.xml': (_url, req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/xml' });
    res.end(
      urlset(originOf(req), [
        { path: '/site/docs/intro' },
        { path: '/site/docs/guide', title: 'The guide' },
        { path: '/site/private/report' },
        { path: 'http://other.invalid/site/elsewhere' },
      ]),
    );
  },
  '/site/sitemap-blog.xml.gz': (_url, req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/gzip' });
    res.end(gzipSync(urlset(originOf(req), [{ path: '/site/blog/first' }, { path: '/site/blog/second' }])));
  },
};

/** The handler of a path under /site/ that is a page (not a site file). */
export function sitePageRoute(pathname: string): Handler | undefined {
  return pathname.startsWith('/site/') ? sitePage : undefined;
}

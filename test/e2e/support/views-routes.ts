// Fixture routes of the page's views (docs/api.md "Links, images and screenshots"): a page with
// every landmark, shadow-root, same-origin and cross-origin frame links, icon links and duplicates;
// a page of images (lazy, srcset, <picture>, trackers, data: URIs); pages to screenshot (coloured
// bands, boxes of known sizes). Served by fixture-server.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';

type Handler = (url: URL, req: IncomingMessage, res: ServerResponse) => void;

function html(res: ServerResponse, body: string) {
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Views</title></head><body>${body}</body></html>`);
}

const portOf = (req: IncomingMessage) => (req.headers.host ?? '').split(':')[1] ?? '';

const ARTICLE_TEXT =
  'Tide pools form where the sea leaves water behind in hollows of rock at low tide. Each pool is a small world of its own, warmed by the sun and cooled again when the tide returns twice a day. ';

/** The colours of /views/bands, top to bottom. */
export const BAND_COLOURS: [number, number, number][] = [
  [255, 0, 0],
  [0, 160, 0],
  [0, 0, 255],
  [255, 200, 0],
  [160, 0, 160],
  [0, 200, 200],
];

export const viewsRoutes: Record<string, Handler> = {
  '/views/links': (_url, req, res) => {
    const other = `http://localhost:${portOf(req)}`;
    html(
      res,
      `<header><a href="/"><svg width="16" height="16"><title>Home</title><rect width="16" height="16"/></svg></a>
<a href="/about" aria-label="About us"><img src="/views/pic.svg" width="16" height="16" alt=""></a></header>
<nav><a href="/news">News</a> <a href="/guides#top">Guides</a></nav>
<div role="navigation"><a href="/by-role">By role</a></div>
<main><article><h1>Tide pools</h1>
<p>${ARTICLE_TEXT.repeat(3)}<a href="/story/1">The first story</a>.</p>
<p>${ARTICLE_TEXT.repeat(3)}<a href="${other}/elsewhere#part">Elsewhere</a> and <a href="/news">News again</a>.</p>
<story-card></story-card>
<p><a href="mailto:ada@example.com">Write to us</a> <a href="javascript:void(0)">Nothing</a>
<a href="/hidden" style="display:none">Hidden</a><span style="visibility:hidden"><a href="/invisible">Invisible</a></span></p>
</article></main>
<section><iframe srcdoc="<a href='/same-frame'>Same-origin frame link</a>"></iframe>
<iframe src="${other}/views/frame"></iframe></section>
<aside><a href="/aside">Aside link</a>
<img src="/views/pic.svg?w=40&h=20" width="40" height="20" usemap="#sides" alt="Sides"><map name="sides"><area shape="rect" coords="0,0,20,20" href="/left" alt="Left side"><area shape="rect" coords="20,0,40,20" href="/aside"></map></aside>
<footer><a href="/terms" title="Terms of use"></a> <a href="/empty"><img src="/views/pic.svg" width="16" height="16"></a></footer>
<script>customElements.define('story-card', class extends HTMLElement {
  constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<p>${ARTICLE_TEXT.repeat(2)}<a href="/shadow">Shadow link</a>.</p>'; }
});</script>`,
    );
  },
  // An article of about `kb` KB (default 100) with a header, a nav, a footer, and links and images in its text.
  '/views/article': (url, _req, res) => {
    const kb = Number(url.searchParams.get('kb') ?? 100);
    const paragraph = (i: number) =>
      `<p>${ARTICLE_TEXT}<a href="/story/${i}">Story ${i}</a> ${ARTICLE_TEXT}<a href="https://example.com/ref/${i}">reference ${i}</a>.</p>` +
      (i % 10 === 0 ? `<img src="/views/pic.svg?w=600&h=300&i=${i}" width="600" height="300" alt="Picture ${i}">` : '');
    const count = Math.ceil((kb * 1024) / paragraph(1).length);
    html(
      res,
      `<header><a href="/">Home</a><nav>${Array.from({ length: 20 }, (_, i) => `<a href="/section/${i}">Section ${i}</a>`).join(' ')}</nav></header>
<main><article><h1>A long article</h1>${Array.from({ length: count }, (_, i) => paragraph(i)).join('\n')}</article></main>
<footer>${Array.from({ length: 20 }, (_, i) => `<a href="/about/${i}">About ${i}</a>`).join(' ')}</footer>`,
    );
  },
  '/views/frame': (_url, _req, res) => html(res, '<p><a href="inner">Frame link</a> <a href="/story/1">Again in the frame</a></p>'),
  '/views/pic.svg': (url, _req, res) => {
    const width = Number(url.searchParams.get('w') ?? 10);
    const height = Number(url.searchParams.get('h') ?? 10);
    res.writeHead(200, { 'Content-Type': 'image/svg+xml' });
    res.end(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="teal"/></svg>`,
    );
  },
  '/views/images': (_url, _req, res) =>
    html(
      res,
      `<header><img src="/views/pic.svg?logo" width="40" height="20" alt="Logo"></header>
<main><p>Pictures</p>
<img src="/views/pic.svg?plain" width="100" height="50" alt="Plain">
<img src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7" data-src="/views/pic.svg?lazy" width="80" height="40" alt="Lazy">
<img src="/views/pic.svg?small" srcset="/views/pic.svg?small 100w, /views/pic.svg?large 400w" sizes="400px" width="400" height="200" alt="Srcset">
<picture><source srcset="/views/pic.svg?picked" type="image/svg+xml"><img src="/views/pic.svg?fallback" width="120" height="60" alt="Picture"></picture>
<img src="/views/pic.svg?tracker" width="1" height="1" alt="Tracker">
<img src="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E" width="30" height="30" alt="Inline data">
<img src="/views/pic.svg?plain" width="100" height="50" alt="Plain again">
<img src="/views/pic.svg?hidden" width="50" height="50" alt="Hidden" style="display:none">
<svg width="50" height="50"><rect width="50" height="50"/></svg>
<div style="background: url(/views/pic.svg?background); width: 30px; height: 30px"></div>
<div style="height: 3000px"></div>
<img loading="lazy" src="/views/pic.svg?below" width="60" height="60" alt="Below the fold">
</main>`,
    ),
  // Coloured bands, each 5,000 CSS px tall: a page of 30,000 px.
  // ?repeat=2 repeats the bands: a 60,000 px page.
  '/views/bands': (url, _req, res) => {
    const bands = Array.from({ length: Number(url.searchParams.get('repeat') ?? 1) }, () => BAND_COLOURS).flat();
    html(
      res,
      `<style>html, body { margin: 0 } div { height: 5000px }</style>${bands.map(([r, g, b]) => `<div style="background: rgb(${r}, ${g}, ${b})"></div>`).join('')}`,
    );
  },
  // Boxes of known sizes for element screenshots; one inside a shadow root.
  '/views/boxes': (_url, _req, res) =>
    html(
      res,
      `<style>body { margin: 0 } .box { width: 300px; height: 120px; background: rgb(0, 128, 255) }</style>
<div style="height: 200px"></div><div class="box" id="first"></div><div class="box" style="width: 500px; height: 80px"></div>
<div id="gone" style="display: none; width: 50px; height: 50px"></div>
<shadow-box></shadow-box>
<script>customElements.define('shadow-box', class extends HTMLElement {
  constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<div class="inner" style="width: 222px; height: 111px; background: red"></div>'; }
});</script>`,
    ),
};

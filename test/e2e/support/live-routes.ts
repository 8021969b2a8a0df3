// Fixture routes of pages that do not sit still (docs/api.md "Waiting"): streams that never end (a
// WebSocket, server-sent events, beacons), elements that arrive late or only in view, and feeds that
// grow on scroll. Served by fixture-server.ts; the WebSocket upgrade is answered here too.
import { createHash } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

type Handler = (url: URL, req: IncomingMessage, res: ServerResponse) => void;

function html(res: ServerResponse, body: string) {
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(body);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
}

/** A line of late content from an ordinary fetch, when the page is asked for one (?late=1): it must still be waited for. */
function lateFetch(url: URL): string {
  if (url.searchParams.get('late') !== '1') return '';
  return `<p id="late">no late data yet</p><script>fetch('/delay?ms=800&body=LATE%20DATA%20ARRIVED').then((r) => r.text()).then((t) => { document.getElementById('late').textContent = t; });</script>`;
}

/** Events every 300 ms, forever: a server-sent-events stream. */
function eventStream(_url: URL, req: IncomingMessage, res: ServerResponse) {
  res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store' });
  res.write('data: hello\n\n');
  const ticker = setInterval(() => res.write('data: tick\n\n'), 300);
  req.on('close', () => clearInterval(ticker));
}

/** Items per batch of the scroll feed. */
const size = (url: URL) => Number(url.searchParams.get('size') ?? 30);

/** A WAV header (8 kHz, 8-bit mono) that announces the longest length the format has: a stream. */
function endlessWavHeader(): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(0xffffffff, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36);
  header.writeUInt32LE(0xffffffff, 40);
  return header;
}

const TALL = '<div style="height: 4000px">spacer far taller than the viewport</div>';

/** Items of a feed batch, each 100 px tall. */
function feedItems(batch: number, count: number): string {
  return Array.from({ length: count }, (_, i) => `<div class="item" style="height: 100px">Feed item ${batch}.${i}</div>`).join('');
}

export const liveRoutes: Record<string, Handler> = {
  // A live chat: a WebSocket that stays open and talks every 300 ms.
  '/live/socket': (url, _req, res) =>
    html(
      res,
      page(
        'Live chat',
        `<h1>Live chat</h1><p id="chat">connecting</p>${lateFetch(url)}<script>
  const socket = new WebSocket('ws://' + location.host + '/live/ws');
  let messages = 0;
  socket.onmessage = () => { document.getElementById('chat').textContent = 'messages: ' + ++messages; };
</script>`,
      ),
    ),
  // A server-sent-events feed, through EventSource or read by fetch as a stream (?via=fetch).
  '/live/sse': (url, _req, res) =>
    html(
      res,
      page(
        'Event feed',
        `<h1>Event feed</h1><p id="events">none yet</p>${lateFetch(url)}<script>
  let events = 0;
  const show = () => { document.getElementById('events').textContent = 'events: ' + ++events; };
  if (${JSON.stringify(url.searchParams.get('via'))} === 'fetch') {
    fetch('/live/events').then(async (response) => {
      const reader = response.body.getReader();
      for (;;) { const { done } = await reader.read(); if (done) break; show(); }
    });
  } else {
    new EventSource('/live/events').onmessage = show;
  }
</script>`,
      ),
    ),
  '/live/events': eventStream,
  // An analytics beacon every 200 ms, to an endpoint that never answers.
  '/live/beacon': (url, _req, res) =>
    html(
      res,
      page(
        'Beacons',
        `<h1>Beacons</h1>${lateFetch(url)}<script>setInterval(() => navigator.sendBeacon('/live/collect', 'event=view'), 200);</script>`,
      ),
    ),
  '/live/collect': () => undefined,
  // Audio that never ends (preloaded, not played): a media stream.
  '/live/radio': (url, _req, res) =>
    html(res, page('Radio', `<h1>Radio</h1><audio src="/live/radio.wav" preload="auto" controls></audio>${lateFetch(url)}`)),
  '/live/radio.wav': (_url, req, res) => {
    res.writeHead(200, { 'Content-Type': 'audio/wav', 'Cache-Control': 'no-store' });
    res.write(endlessWavHeader());
    const ticker = setInterval(() => res.write(Buffer.alloc(800)), 100);
    req.on('close', () => clearInterval(ticker));
  },

  // An element added 1.2 s after load, long after the network went quiet.
  '/wait/late-element': (_url, _req, res) =>
    html(
      res,
      page(
        'Late element',
        `<h1>Late element</h1><script>addEventListener('load', () => setTimeout(() => {
  const late = document.createElement('div'); late.id = 'late'; late.textContent = 'Late element arrived'; document.body.append(late);
}, 1200));</script>`,
      ),
    ),
  // Matches that are not rendered: hidden, invisible, empty; the hidden one is shown after 1.2 s.
  '/wait/hidden-matches': (_url, _req, res) =>
    html(
      res,
      page(
        'Hidden matches',
        `<h1>Hidden matches</h1>
<div class="target" id="shown-later" style="display: none">Shown later</div>
<div class="ghost" style="visibility: hidden">Ghost text</div>
<div class="empty"></div>
<section style="display: none"><p class="inner">Inside a hidden section</p></section>
<script>addEventListener('load', () => setTimeout(() => { document.getElementById('shown-later').style.display = 'block'; }, 1200));</script>`,
      ),
    ),
  // An open shadow root that gets its content 1.2 s after load.
  '/wait/shadow': (_url, _req, res) =>
    html(
      res,
      page(
        'Shadow wait',
        `<h1>Shadow wait</h1><late-card></late-card><script>
customElements.define('late-card', class extends HTMLElement {
  constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<p>Card shell</p>'; }
});
addEventListener('load', () => setTimeout(() => {
  const p = document.createElement('p'); p.className = 'card-body'; p.textContent = 'Shadow content arrived';
  document.querySelector('late-card').shadowRoot.append(p);
}, 1200));</script>`,
      ),
    ),
  // Never network-idle (a request that never ends), with the element wanted 800 ms after load.
  '/wait/busy-element': (_url, _req, res) =>
    html(
      res,
      page(
        'Busy element',
        `<h1>Busy element</h1><script>fetch('/hang').catch(() => {});
addEventListener('load', () => setTimeout(() => {
  const ready = document.createElement('p'); ready.id = 'ready'; ready.textContent = 'Ready at last'; document.body.append(ready);
}, 800));</script>`,
      ),
    ),

  // Lazy loaders below the fold: sections that render when observed in view, an image whose real
  // source is swapped in on view, and a loading=lazy iframe. The page says whether it was scrolled.
  '/lazy/below-the-fold': (_url, _req, res) =>
    html(
      res,
      page(
        'Lazy page',
        `<h1>Lazy page</h1><p id="scrolled">never scrolled</p><p id="viewport">viewport not measured</p>
<script>const viewportAtStart = innerWidth + 'x' + innerHeight;</script>${TALL}
${[1, 2, 3].map((i) => `<section class="lazy-section" data-text="Section ${i} rendered in view">placeholder ${i}</section>`).join('')}
<img class="lazy-image" src="/lazy/placeholder.gif" data-src="/lazy/photo.jpg" alt="Harbour at dawn">
${TALL}
<iframe loading="lazy" src="/pages/reader-frame.html"></iframe>
<script>
  addEventListener('scroll', () => { document.getElementById('scrolled').textContent = 'SCROLLED'; });
  addEventListener('load', () => {
    const now = innerWidth + 'x' + innerHeight;
    document.getElementById('viewport').textContent = now === viewportAtStart ? 'viewport unchanged' : 'viewport changed from ' + viewportAtStart + ' to ' + now;
  });
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      const el = entry.target;
      if (el.dataset.text) el.textContent = el.dataset.text;
      if (el.dataset.src) el.src = el.dataset.src;
      observer.unobserve(el);
    }
  });
  document.querySelectorAll('.lazy-section, .lazy-image').forEach((el) => observer.observe(el));
</script>`,
      ),
    ),

  // Two viewports of text; reaching the bottom starts a slow load (3 s, longer than the two scroll steps
  // that end the scroll wait) whose answer is appended: only waiting for the event again gets it.
  '/scroll/slow-more': (_url, _req, res) =>
    html(
      res,
      page(
        'Slow more',
        `<h1>Slow more</h1><div style="height: 1200px">two viewports of text</div><p id="more">nothing more yet</p><script>
  let asked = false;
  addEventListener('scroll', () => {
    if (asked || innerHeight + scrollY < document.documentElement.scrollHeight - 10) return;
    asked = true;
    fetch('/delay?ms=3000&body=Loaded%20after%20the%20scroll').then((r) => r.text()).then((t) => { document.getElementById('more').textContent = t; });
  });
</script>`,
      ),
    ),
  // A feed that grows on scroll: a sentinel under the items, observed with a 1000 px margin below the
  // viewport (as feeds prefetch), fetches the next batch of ?size= items (30 by default, 100 px each)
  // when it comes near. ?batches=N ends after N batches with "End of feed"; without it the feed never
  // ends. The page writes how many viewports it has been scrolled down.
  '/scroll/feed': (url, _req, res) =>
    html(
      res,
      page(
        'Feed',
        `<h1>Feed</h1><p id="scrolled">viewports scrolled: 0</p><div id="items">${feedItems(1, size(url))}</div><div id="sentinel"></div><script>
  const limit = Number(${JSON.stringify(url.searchParams.get('batches') ?? '0')});
  const size = ${size(url)};
  let batch = 1;
  addEventListener('scroll', () => {
    document.getElementById('scrolled').textContent = 'viewports scrolled: ' + Math.round(scrollY / innerHeight);
  });
  const sentinel = document.getElementById('sentinel');
  let loading = false;
  const observer = new IntersectionObserver(async (entries) => {
    if (!entries.some((entry) => entry.isIntersecting) || loading) return;
    if (limit > 0 && batch >= limit) { sentinel.textContent = 'End of feed'; observer.disconnect(); return; }
    loading = true;
    const next = ++batch;
    await fetch('/delay?ms=100&body=batch').then((response) => response.text());
    const items = Array.from({ length: size }, (_, i) => '<div class="item" style="height: 100px">Feed item ' + next + '.' + i + '</div>').join('');
    document.getElementById('items').insertAdjacentHTML('beforeend', items);
    loading = false;
    observer.unobserve(sentinel);
    observer.observe(sentinel);
  }, { rootMargin: '0px 0px 1000px 0px' });
  observer.observe(sentinel);
</script>`,
      ),
    ),
};

/** Answers WebSocket upgrades on /live/ws: a socket that stays open and sends "tick" every 300 ms. */
export function acceptWebSockets(server: Server, answeredElsewhere: (req: IncomingMessage) => boolean = () => false): void {
  server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    if (answeredElsewhere(req)) return;
    const key = req.headers['sec-websocket-key'];
    if (req.url !== '/live/ws' || typeof key !== 'string') return socket.destroy();
    const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    const frame = Buffer.from([0x81, 4, ...Buffer.from('tick')]);
    const ticker = setInterval(() => socket.write(frame), 300);
    socket.on('error', () => undefined);
    socket.on('close', () => clearInterval(ticker));
  });
}

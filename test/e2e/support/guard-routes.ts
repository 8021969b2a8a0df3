// Fixture routes for the guard on a page's own requests (subresource-guard.test.ts): a page, served
// from a public address, that reaches for loopback through names that resolve there, redirects and
// WebSockets; and the "secret" every such request would get. Whatever reaches the page of the secret
// is written into the page as LEAKED, so an answer that holds it shows it.
import { createHash } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

type Handler = (url: URL, req: IncomingMessage, res: ServerResponse) => void;

const SECRET_PATH = '/guard/secret';
const SOCKET_PATH = '/guard/secret-socket';

function portOf(req: IncomingMessage): string {
  return (req.headers.host ?? '').split(':')[1] ?? '';
}

/**
 * The page: `?host=` names where the secret lives (a name that resolves to loopback); `?sockets=no`
 * leaves its WebSockets out.
 */
function reboundPage(url: URL, req: IncomingMessage): string {
  const sockets = url.searchParams.get('sockets') !== 'no';
  const port = portOf(req);
  const secretHost = `http://${url.searchParams.get('host') ?? 'secret.rebind.example'}:${port}`;
  const socketHost = secretHost.replace(/^http/, 'ws');
  const loopbackSecret = `http://127.0.0.1:${port}${SECRET_PATH}`;
  const redirect = (target: string) => `/redirect-to?url=${encodeURIComponent(target)}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Rebound</title></head><body>
<h1>Rebound page</h1>
<p>public script: <span id="public-script">nothing arrived</span></p>
<p>frame: <span id="frame">nothing arrived</span></p>
<p>fetch: <span id="fetch">pending</span></p>
<p>script: <span id="script">nothing arrived</span></p>
<p>redirected script: <span id="redirected-script">nothing arrived</span></p>
<p>redirected frame: <span id="redirected-frame">nothing arrived</span></p>
${sockets ? '<p>socket by name: <span id="socket-name">pending</span></p>\n<p>socket by address: <span id="socket-address">pending</span></p>' : ''}
<script>
  const show = (id, text) => { document.getElementById(id).textContent = text; };
  addEventListener('message', (event) => show(event.data.id, 'LEAKED ' + event.data.text));
  fetch('${secretHost}${SECRET_PATH}?what=fetch').then((r) => r.text()).then(
    (text) => show('fetch', 'LEAKED ' + text),
    () => show('fetch', 'refused'),
  );
</script>
${sockets ? socketScript(socketHost, port) : ''}
<iframe src="${secretHost}${SECRET_PATH}?what=frame"></iframe>
<iframe src="${redirect(`${secretHost}${SECRET_PATH}?what=redirected-frame`)}"></iframe>
<script src="/guard/public-script"></script>
<script src="${secretHost}${SECRET_PATH}?what=script"></script>
<script src="${redirect(`${loopbackSecret}?what=redirected-script`)}"></script>
</body></html>`;
}

function socketScript(socketHost: string, port: string): string {
  return `<script>
  const socket = (id, url) => {
    const ws = new WebSocket(url);
    ws.onmessage = (event) => show(id, 'LEAKED ' + event.data);
    ws.onerror = () => show(id, 'refused');
  };
  socket('socket-name', '${socketHost}${SOCKET_PATH}?by=name');
  socket('socket-address', 'ws://127.0.0.1:${port}${SOCKET_PATH}?by=address');
</script>`;
}

/**
 * A page opening WebSockets to loopback by address: its own constructor's, and one taken from a frame
 * the script creates (about:blank); and one to its own public host, which is let through. Each span
 * says what the page saw: the events, then the socket's state and whether it is a WebSocket.
 */
function socketsPage(req: IncomingMessage): string {
  const port = portOf(req);
  const secret = (by: string) => `ws://127.0.0.1:${port}${SOCKET_PATH}?by=${by}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sockets</title></head><body>
<h1>Sockets page</h1>
<p>by address: <span id="by-address">pending</span></p>
<p>from a frame's constructor: <span id="blank-frame">pending</span></p>
<p>public: <span id="public">pending</span></p>
<script>
  const show = (id, text) => { document.getElementById(id).textContent = text; };
  let closed = 0;
  const done = () => { if (++closed === 3) document.body.insertAdjacentHTML('beforeend', '<p id="sockets-done">all closed</p>'); };
  const watch = (id, ws, Socket) => {
    const seen = [];
    ws.onopen = () => seen.push('open');
    ws.onmessage = (event) => show(id, id === 'public' ? 'message arrived' : 'LEAKED ' + event.data);
    ws.onerror = () => seen.push('error');
    ws.addEventListener('close', (event) => {
      seen.push('close ' + event.code);
      if (id !== 'public') show(id, seen.join(', ') + '; state ' + ws.readyState + '; instance ' + (ws instanceof Socket));
      done();
    });
  };
  watch('by-address', new WebSocket('${secret('address')}'), WebSocket);
  const frame = document.createElement('iframe');
  document.body.appendChild(frame);
  const FrameSocket = frame.contentWindow.WebSocket;
  watch('blank-frame', new FrameSocket('${secret('blank-frame')}'), FrameSocket);
  watch('public', new WebSocket('ws://' + location.host + '${SOCKET_PATH}?by=public'), WebSocket);
</script></body></html>`;
}

/**
 * A dedicated worker's sockets (no frame's preload reaches a worker): one to loopback by address, one
 * to the page's public host (`host`). It posts what each saw.
 */
function socketWorker(req: IncomingMessage, by: string): string {
  const port = portOf(req);
  return `const results = {};
const watch = (id, ws) => {
  const seen = [];
  ws.onopen = () => seen.push('open');
  ws.onmessage = () => seen.push('message');
  ws.onerror = () => seen.push('error');
  ws.onclose = (event) => {
    seen.push('close ' + event.code);
    results[id] = seen.join(', ') + '; state ' + ws.readyState;
    if (Object.keys(results).length === 2) postMessage(results);
  };
};
watch('loopback', new WebSocket('ws://127.0.0.1:${port}${SOCKET_PATH}?by=${by}'));
watch('public', new WebSocket('ws://${req.headers.host ?? ''}${SOCKET_PATH}?by=${by}-public'));`;
}

/** A page whose workers (a script's, a blob's) open the sockets; each worker's results fill a paragraph. */
function workerPage(req: IncomingMessage): string {
  const blobSource = JSON.stringify(socketWorker(req, 'blob-worker')).replace(/</g, '\\u003c');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Worker sockets</title></head><body>
<h1>Worker sockets</h1>
<p id="worker">pending</p>
<p id="blob-worker">pending</p>
<script>
  let finished = 0;
  const run = (id, worker) => {
    worker.onmessage = (event) => {
      document.getElementById(id).textContent = 'loopback: ' + event.data.loopback + ' | public: ' + event.data.public;
      if (++finished === 2) document.body.insertAdjacentHTML('beforeend', '<p id="workers-done">all closed</p>');
    };
  };
  run('worker', new Worker('/guard/socket-worker.js'));
  const blob = new Blob([${blobSource}], { type: 'text/javascript' });
  run('blob-worker', new Worker(URL.createObjectURL(blob)));
</script></body></html>`;
}

/** What a loopback service would answer: the secret, in a form each kind of request can read. */
const secret: Handler = (url, _req, res) => {
  const what = (url.searchParams.get('what') ?? '').replace(/[^\w-]/g, '');
  const text = `SECRET-${what}`;
  res.setHeader('Access-Control-Allow-Origin', '*');
  if (what === 'script' || what === 'redirected-script') {
    res.writeHead(200, { 'Content-Type': 'text/javascript' });
    res.end(`document.getElementById('${what}').textContent = 'LEAKED ${text}';`);
  } else if (what.endsWith('frame')) {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(`<!doctype html><p>${text}</p><script>parent.postMessage({ id: '${what}', text: '${text}' }, '*');</script>`);
  } else {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end(text);
  }
};

export const guardRoutes: Record<string, Handler> = {
  '/guard/rebound': (url, req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(reboundPage(url, req));
  },
  '/guard/sockets': (_url, req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(socketsPage(req));
  },
  '/guard/socket-worker': (_url, req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(workerPage(req));
  },
  '/guard/socket-worker.js': (_url, req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/javascript', 'Cache-Control': 'no-store' });
    res.end(socketWorker(req, 'worker'));
  },
  [SECRET_PATH]: secret,
  // A page that fetches one cacheable resource twice: the second answer comes from the browser's cache.
  '/guard/twice': (_url, _req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Twice</title></head><body>
<h1>Twice</h1><p id="first">pending</p><p id="second">pending</p>
<script>
  const get = () => fetch('/guard/cacheable').then((r) => r.text());
  get()
    .then((text) => { document.getElementById('first').textContent = 'first: ' + text; return get(); })
    .then((text) => { document.getElementById('second').textContent = 'second: ' + text; })
    .catch(() => { document.getElementById('second').textContent = 'refused'; });
</script></body></html>`);
  },
  '/guard/cacheable': (_url, _req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'max-age=3600' });
    res.end('cached text');
  },
  // A script from the page's own public host: judged like the others, and let through.
  '/guard/public-script': (_url, _req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/javascript' });
    res.end(`document.getElementById('public-script').textContent = 'public script ran';`);
  },
};

/** Whether an upgrade request is the guard page's WebSocket (acceptGuardSocket answers it). */
export const isGuardSocket = (req: IncomingMessage): boolean => (req.url ?? '').startsWith(SOCKET_PATH);

/** Accepts the guard page's WebSockets and sends the secret at once. */
export function acceptGuardSockets(server: Server): void {
  server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    const key = req.headers['sec-websocket-key'];
    if (!isGuardSocket(req) || typeof key !== 'string') return;
    const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    const text = Buffer.from('SECRET-socket');
    // The secret, then a close frame and the end: an open socket would hold the server's close up.
    socket.end(Buffer.from([0x81, text.length, ...text, 0x88, 0]));
    socket.on('error', () => undefined);
  });
}

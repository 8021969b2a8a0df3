// A real HTTP forward proxy for the proxy tests (the maintained `proxy` package: plain HTTP and
// CONNECT, Basic auth), started on 127.0.0.1. It records every request with the username it came
// with, and resolves host names ending in `.test` to the fixture server itself, so a page fetched
// by such a name can only have arrived through this proxy. A request for /proxy-drops makes it drop
// the connection, as a failing proxy would.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxy } from 'proxy';

export interface ProxyRecord {
  method: string;
  /** host:port the client asked for (before the .test mapping). */
  target: string;
  path: string;
  username?: string;
}

export interface TestProxy {
  server: string;
  requests: ProxyRecord[];
  close(): Promise<void>;
}

function basicCredentials(req: IncomingMessage): { username: string; password: string } | undefined {
  const header = req.headers['proxy-authorization'];
  if (typeof header !== 'string' || !header.startsWith('Basic ')) return undefined;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * @param fixturePort where `*.test` names are sent
 * @param accepts decides a username/password pair; omit for a proxy without authentication
 */
export async function startTestProxy(fixturePort: number, accepts?: (username: string, password: string) => boolean): Promise<TestProxy> {
  const requests: ProxyRecord[] = [];
  const server = createServer();
  // Runs before the proxy's own handler, which reads the rewritten req.url.
  server.prependListener('request', (req: IncomingMessage) => {
    const url = new URL(req.url ?? '/');
    requests.push({
      method: req.method ?? '',
      target: url.host,
      path: url.pathname + url.search,
      username: basicCredentials(req)?.username,
    });
    // A proxy failing mid-request: it drops the connection without answering.
    if (url.pathname === '/proxy-drops') {
      req.socket.destroy();
      return;
    }
    if (url.hostname.endsWith('.test')) {
      url.hostname = '127.0.0.1';
      url.port = String(fixturePort);
      req.url = url.toString();
    }
  });
  server.prependListener('connect', (req: IncomingMessage) => {
    requests.push({ method: 'CONNECT', target: req.url ?? '', path: '', username: basicCredentials(req)?.username });
  });
  const proxy = createProxy(server);
  if (accepts) {
    proxy.authenticate = (req) => {
      const credentials = basicCredentials(req);
      return credentials !== undefined && accepts(credentials.username, credentials.password);
    };
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

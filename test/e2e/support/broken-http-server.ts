// A raw TCP server on 127.0.0.1 that answers HTTP the way broken and hostile targets do, byte by
// byte: bodies cut short, reset, stalled or trickled, and a gzip bomb. Node's HTTP server would tidy
// some of these up, so the scenarios write to the socket directly. It tracks its open connections so a
// test can check that the service dropped the connection to the target after answering.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { constants, crc32, deflateRawSync } from 'node:zlib';

export interface BrokenHttpServer {
  url(path: string): string;
  /** Connections still open for requests of `path`. */
  openConnections(path: string): number;
  close(): Promise<void>;
}

const HTML_HEAD = '<!doctype html><html><head><meta charset="utf-8"><title>Broken</title></head><body>';

function headers(extra: string[] = []): string {
  return ['HTTP/1.1 200 OK', 'Content-Type: text/html; charset=utf-8', 'Connection: close', ...extra, '', ''].join('\r\n');
}

/** Bytes of the decoded gzip bomb: 1 GiB of text that compresses to about a megabyte. */
export const BOMB_DECODED_BYTES = 1024 ** 3;

/**
 * A gzip member whose content is BOMB_DECODED_BYTES of one letter: one fully flushed deflate segment
 * for 1 MiB, repeated (each segment starts from an empty window, so repeats decode alike).
 */
function gzipBomb(): Buffer {
  const chunk = Buffer.alloc(1024 * 1024, 'a');
  const segment = deflateRawSync(chunk, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const repeats = BOMB_DECODED_BYTES / chunk.length;
  let crc = 0;
  for (let i = 0; i < repeats; i++) crc = crc32(chunk, crc);
  const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
  const finalBlock = Buffer.from([0x03, 0x00]); // an empty final block with fixed codes
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(BOMB_DECODED_BYTES % 2 ** 32, 4);
  return Buffer.concat([header, ...new Array<Buffer>(repeats).fill(segment), finalBlock, trailer]);
}

type Scenario = (socket: Socket) => void;

function scenarios(bomb: () => Buffer): Record<string, Scenario> {
  return {
    // Part of the body, then a TCP reset.
    '/reset-mid-body': (socket) => {
      socket.write(headers() + HTML_HEAD + '<h1>Partial</h1><p>the connection is reset after this');
      setTimeout(() => socket.resetAndDestroy(), 100);
    },
    // Headers, then a TCP reset before any byte of the body.
    '/reset-before-body': (socket) => {
      socket.write(headers());
      setTimeout(() => socket.resetAndDestroy(), 100);
    },
    // A Content-Length of 100000, then the connection closes after a few hundred bytes.
    '/short-body': (socket) => {
      socket.write(headers(['Content-Length: 100000']) + HTML_HEAD + '<h1>Short</h1><p>closed short of its length');
      setTimeout(() => socket.end(), 100);
    },
    // Part of the body, then nothing, with the connection left open.
    '/stalled-body': (socket) => {
      socket.write(headers() + HTML_HEAD + '<h1>Stalled</h1><p>nothing comes after this');
    },
    // A byte every 200 ms, forever.
    '/trickle': (socket) => {
      socket.write(headers() + HTML_HEAD + '<h1>Trickle</h1><p>');
      const timer = setInterval(() => (socket.writable ? socket.write('.') : clearInterval(timer)), 200);
      socket.on('close', () => clearInterval(timer));
    },
    '/gzip-bomb': (socket) => {
      const body = bomb();
      socket.write(headers([`Content-Length: ${body.length}`, 'Content-Encoding: gzip']));
      socket.end(body);
    },
  };
}

export async function startBrokenHttpServer(): Promise<BrokenHttpServer> {
  let bomb: Buffer | undefined;
  const routes = scenarios(() => (bomb ??= gzipBomb()));
  const open = new Map<Socket, string>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let head = '';
    socket.on('data', function onData(data) {
      head += data.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      const path = /^[A-Z]+ (\S+)/.exec(head)?.[1]?.split('?')[0] ?? '/';
      open.set(socket, path);
      socket.on('close', () => open.delete(socket));
      const scenario = routes[path];
      if (scenario === undefined) socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      else scenario(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    openConnections: (path) => [...open.values()].filter((p) => p === path).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

// The page's WebSocket wrapper (in-page/socket-guard.ts) around a stand-in for the browser's
// constructor: which URL a socket would connect to, that a refused one fails as a refused connection
// does without the constructor being called, and that everything else stays the browser's.
import { describe, expect, it } from 'vitest';
import { guardWebSockets, type SocketScope, socketUrl } from '../../../src/in-page/socket-guard.js';

describe('socketUrl', () => {
  it.each([
    ['ws://127.0.0.1:8080/a?b=c', 'https://site.example/', 'ws://127.0.0.1:8080/a?b=c'],
    ['http://localhost/x', 'https://site.example/', 'ws://localhost/x'],
    ['https://10.0.0.1/x', 'https://site.example/', 'wss://10.0.0.1/x'],
    ['/live', 'https://site.example/page', 'wss://site.example/live'],
    ['//[::1]:9/s', 'http://site.example/', 'ws://[::1]:9/s'],
  ])('connects %j (from %s) to %s', (input, base, expected) => {
    expect(socketUrl(input, base)?.href).toBe(expected);
  });

  it.each(['ftp://127.0.0.1/', 'ws://127.0.0.1/#frag', 'ws://', 'javascript:alert(1)'])(
    'leaves %j to the constructor, which throws for it',
    (input) => {
      expect(socketUrl(input, 'https://site.example/')).toBeUndefined();
    },
  );
});

class StandInCloseEvent extends Event {
  readonly code: number;
  readonly wasClean: boolean;
  constructor(type: string, init: { code: number; wasClean: boolean }) {
    super(type);
    this.code = init.code;
    this.wasClean = init.wasClean;
  }
}

/** A window with a stand-in WebSocket that records what it was asked to connect to. */
function standInScope() {
  const connected: string[] = [];
  const timers: (() => void)[] = [];
  class StandInSocket extends EventTarget {
    static readonly CONNECTING = 0;
    static readonly CLOSED = 3;
    readonly url: string;
    constructor(url: string) {
      super();
      if (url === undefined) throw new TypeError('1 argument required');
      this.url = url;
      connected.push(url);
    }
  }
  const scope: SocketScope = {
    WebSocket: StandInSocket as unknown as typeof WebSocket,
    EventTarget,
    Event,
    CloseEvent: StandInCloseEvent as unknown as typeof CloseEvent,
    setTimeout: (callback) => timers.push(callback),
    baseUrl: () => 'https://site.example/page',
  };
  const runTimers = () => {
    for (const timer of timers.splice(0)) timer();
  };
  return { scope, connected, runTimers, StandInSocket };
}

const refuseLoopback = (url: URL) => (url.hostname === '127.0.0.1' ? 'loopback address' : undefined);

describe('guardWebSockets', () => {
  it('fails a refused socket with an error then a close 1006, never calling the constructor', () => {
    const { scope, connected, runTimers } = standInScope();
    guardWebSockets(scope, refuseLoopback);
    const socket = new scope.WebSocket('ws://127.0.0.1:9/secret') as WebSocket & Record<'onerror' | 'onopen', unknown>;
    const seen: string[] = [];
    socket.onerror = () => seen.push(`error, state ${socket.readyState}`);
    socket.addEventListener('close', (event) => seen.push(`close ${(event as CloseEvent).code} ${(event as CloseEvent).wasClean}`));
    socket.onopen = () => seen.push('open');
    expect(socket.readyState).toBe(0);
    expect(socket.url).toBe('ws://127.0.0.1:9/secret');
    expect(() => socket.send('x')).toThrow(DOMException);
    expect(seen).toEqual([]);
    runTimers();
    expect(seen).toEqual(['error, state 3', 'close 1006 false']);
    expect(connected).toEqual([]);
  });

  it('keeps instanceof, the static constants and the prototype, and hides the browser constructor', () => {
    const { scope, StandInSocket } = standInScope();
    guardWebSockets(scope, refuseLoopback);
    const Guarded = scope.WebSocket;
    expect(Guarded).not.toBe(StandInSocket);
    expect(Guarded.prototype).toBe(StandInSocket.prototype);
    expect(Guarded.CLOSED).toBe(3);
    expect(new Guarded('ws://127.0.0.1/')).toBeInstanceOf(Guarded);
    expect(new Guarded('ws://public.example/')).toBeInstanceOf(Guarded);
    // The prototype's constructor is the wrapper: the page cannot reach around it that way.
    expect(Guarded.prototype.constructor).toBe(Guarded);
  });

  it('lets any other socket through to the browser constructor, subclasses and relative URLs included', () => {
    const { scope, connected } = standInScope();
    guardWebSockets(scope, refuseLoopback);
    class Mine extends scope.WebSocket {}
    const mine = new Mine('wss://public.example/a');
    expect(mine).toBeInstanceOf(Mine);
    new scope.WebSocket('/live');
    expect(connected).toEqual(['wss://public.example/a', '/live']);
    // A refused socket of a subclass is still of that subclass.
    expect(new Mine('ws://127.0.0.1/')).toBeInstanceOf(Mine);
    expect(connected).toHaveLength(2);
  });

  it('judges a relative URL by what it resolves to', () => {
    const { scope, connected } = standInScope();
    scope.baseUrl = () => 'http://127.0.0.1:8080/page';
    guardWebSockets(scope, refuseLoopback);
    new scope.WebSocket('/socket');
    expect(connected).toEqual([]);
  });

  it('leaves a malformed call to the browser constructor and its error', () => {
    const { scope } = standInScope();
    guardWebSockets(scope, refuseLoopback);
    expect(() => new (scope.WebSocket as unknown as new () => WebSocket)()).toThrow(TypeError);
  });
});

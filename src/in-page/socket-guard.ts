// The private-network guard's own layer for WebSockets, in the page: CDP's Fetch domain never sees a
// WebSocket handshake, so the page's WebSocket constructor is wrapped (preload/socket-guard.ts) and a
// socket whose URL the guard refuses fails the way a refused connection does (an error event, then a
// close event with code 1006, readyState CLOSED) without reaching the network. Only the URL is judged:
// a name that resolves privately is not known in the page (docs/guard.md "What is not prevented").
// Everything else about the constructor stays the browser's: `instanceof WebSocket`, its static
// constants, its prototype, subclasses, and the errors it throws for a malformed URL.

/** What the wrapper needs of the window (a stand-in in unit tests). */
export interface SocketScope {
  WebSocket: typeof WebSocket;
  EventTarget: typeof EventTarget;
  Event: typeof Event;
  CloseEvent: typeof CloseEvent;
  setTimeout(callback: () => void, ms: number): unknown;
  /** The base a relative socket URL resolves against (the document's base URL). */
  baseUrl(): string;
}

/**
 * The URL the browser would connect a WebSocket to, or undefined when its constructor throws instead
 * (unparsable, another scheme, a fragment): `http:` and `https:` become `ws:` and `wss:`.
 */
export function socketUrl(input: string, base: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    return undefined;
  }
  if (url.protocol === 'http:') url.protocol = 'ws:';
  else if (url.protocol === 'https:') url.protocol = 'wss:';
  if ((url.protocol !== 'ws:' && url.protocol !== 'wss:') || url.hash !== '') return undefined;
  return url;
}

/** What `new` was called on: the WebSocket, or a page's subclass of it. */
type Constructor = new (...args: never[]) => unknown;

const EVENT_TYPES = ['open', 'message', 'error', 'close'] as const;

/**
 * A WebSocket (by prototype: `newTarget`'s) that never connects: its error and close events come a
 * task later, as a refused connection's do. Its state lives in own properties, since the browser's
 * accessors only work on sockets the browser made.
 */
function refusedSocket(scope: SocketScope, url: URL, newTarget: Constructor): WebSocket {
  const socket = Reflect.construct(scope.EventTarget, [], newTarget) as WebSocket;
  let readyState = 0; // CONNECTING
  let binaryType = 'blob';
  const handlers = new Map<string, unknown>();
  const value = (v: unknown) => ({ get: () => v, configurable: true });
  const properties: PropertyDescriptorMap = {
    url: value(url.href),
    protocol: value(''),
    extensions: value(''),
    bufferedAmount: value(0),
    readyState: { get: () => readyState, configurable: true },
    binaryType: {
      get: () => binaryType,
      set: (type: unknown) => {
        if (type === 'blob' || type === 'arraybuffer') binaryType = type;
      },
      configurable: true,
    },
    send: {
      value: () => {
        if (readyState === 0)
          throw new DOMException("Failed to execute 'send' on 'WebSocket': Still in CONNECTING state.", 'InvalidStateError');
      },
      configurable: true,
      writable: true,
    },
    close: {
      value: () => {
        if (readyState < 2) readyState = 2; // CLOSING: the refusal's events still come
      },
      configurable: true,
      writable: true,
    },
  };
  for (const type of EVENT_TYPES) {
    properties[`on${type}`] = {
      get: () => handlers.get(type) ?? null,
      set: (handler: unknown) => void handlers.set(type, typeof handler === 'function' ? handler : null),
      configurable: true,
    };
    socket.addEventListener(type, (event) => {
      const handler = handlers.get(type);
      if (typeof handler === 'function') handler.call(socket, event);
    });
  }
  Object.defineProperties(socket, properties);
  scope.setTimeout(() => {
    readyState = 3; // CLOSED
    socket.dispatchEvent(new scope.Event('error'));
    socket.dispatchEvent(new scope.CloseEvent('close', { code: 1006, reason: '', wasClean: false }));
  }, 0);
  return socket;
}

/**
 * Replaces `scope.WebSocket` with one that refuses a socket when `refusal` gives a reason for its URL.
 * The browser's own constructor stays unreachable from the page: its prototype's `constructor` names
 * the wrapper.
 */
export function guardWebSockets(scope: SocketScope, refusal: (url: URL) => string | undefined): void {
  const Native = scope.WebSocket;
  if (typeof Native !== 'function') return;
  const Guarded = new Proxy(Native, {
    construct(target, args: unknown[], newTarget: Constructor) {
      const url = args.length === 0 ? undefined : socketUrl(String(args[0]), scope.baseUrl());
      if (url !== undefined && refusal(url) !== undefined) return refusedSocket(scope, url, newTarget);
      return Reflect.construct(target, args, newTarget);
    },
  });
  Object.defineProperty(Native.prototype, 'constructor', { value: Guarded, writable: true, configurable: true, enumerable: false });
  scope.WebSocket = Guarded;
}

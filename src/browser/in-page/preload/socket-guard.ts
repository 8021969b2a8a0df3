// Runs in every frame's main world before the page's own scripts, only while the private-network
// guard is on (page-setup.ts): a WebSocket to a private host by its URL fails as a refused connection
// would, never reaching the network (../socket-guard.ts). The rule is the guard's own
// (guard/addresses.ts, ipaddr.js bundled in), the one the request filter applies to every other
// request. A frame created by script (about:blank, srcdoc) runs this too before the page can reach it.
import { privateHostReason } from '../../../guard/addresses.js';
import { guardWebSockets } from '../socket-guard.js';

guardWebSockets(
  {
    get WebSocket() {
      return window.WebSocket;
    },
    set WebSocket(guarded) {
      window.WebSocket = guarded;
    },
    EventTarget,
    Event,
    CloseEvent,
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    baseUrl: () => document.baseURI,
  },
  (url) => privateHostReason(url.hostname) ?? undefined,
);

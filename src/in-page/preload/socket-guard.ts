// Runs, only while the private-network guard is on, in every frame's main world before the page's own
// scripts, and in every dedicated worker before its own (page-setup.ts, worker-preload.ts): a
// WebSocket to a private host by its URL fails as a refused connection would, never reaching the
// network (../socket-guard.ts). The rule is the guard's own (guard/addresses.ts, ipaddr.js bundled
// in), the one the request filter applies to every other request. A frame created by script
// (about:blank, srcdoc) runs this too before the page can reach it.
import { privateHostReason } from '../../guard/addresses.js';
import { guardWebSockets } from '../socket-guard.js';

guardWebSockets(
  {
    get WebSocket() {
      return globalThis.WebSocket;
    },
    set WebSocket(guarded) {
      globalThis.WebSocket = guarded;
    },
    EventTarget,
    Event,
    CloseEvent,
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    // A worker has no document: its relative URLs resolve against its script's.
    baseUrl: () => (typeof document === 'undefined' ? location.href : document.baseURI),
  },
  (url) => privateHostReason(url.hostname) ?? undefined,
);

// Narrow access to puppeteer internals that its public API does not expose: the page's own CDP
// session (already attached, with Network and Page enabled, so listening costs no round trip) and
// the CDP ids of requests, frames and targets. Used to see downloads, which Chrome aborts before any
// 'response' event, to tell main-frame navigations from other requests, and to find a page target
// created through CDP directly.
import type { CDPSession, Frame, HTTPRequest, Page, Target } from '@cloudflare/puppeteer';

/** The CDP session puppeteer keeps on a page or frame (`_client()`), if this build has one. */
function clientOf(holder: Page | Frame): CDPSession | undefined {
  const internal = holder as unknown as { _client?: () => CDPSession };
  return typeof internal._client === 'function' ? internal._client() : undefined;
}

/** The page's CDP session, or undefined if this puppeteer build does not have it. */
export function pageSession(page: Page): CDPSession | undefined {
  return clientOf(page);
}

/** The CDP requestId of a request (Network.* events use it). */
export function requestId(request: HTTPRequest): string | undefined {
  const id = (request as unknown as { id?: unknown }).id;
  return typeof id === 'string' ? id : undefined;
}

/** The CDP frameId of a frame (Fetch.requestPaused names frames by it). */
export function frameId(frame: Frame): string | undefined {
  const id = (frame as unknown as { _id?: unknown })._id;
  return typeof id === 'string' ? id : undefined;
}

/** The CDP targetId of a target (Target.* commands name targets by it). */
export function targetId(target: Target): string | undefined {
  const id = (target as unknown as { _targetId?: unknown })._targetId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Whether `frame` is a page's top-level frame. Compared by position, not identity: puppeteer may
 * replace the main Frame object when a navigation moves the page to another renderer process.
 */
export function isTopFrame(frame: Frame | null | undefined): boolean {
  return frame !== null && frame !== undefined && frame.parentFrame() === null;
}

/** The CDP session of a frame's target: the page's own for its frames, the iframe's for an out-of-process one. */
export function frameSession(frame: Frame): CDPSession | undefined {
  return clientOf(frame);
}

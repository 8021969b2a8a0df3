// What the OpenAPI document says of the request-control fields (docs/api.md "Request controls"):
// the rules the server applies beyond what their JSON Schema can say.
import { MAX_COOKIES, MAX_HEADER_BYTES, MAX_HEADERS, VIEWPORT_HEIGHT, VIEWPORT_WIDTH } from './visit-fields.js';

export const VISIT_FIELD_DOCS = {
  headers: {
    description: `Extra request headers (name → string), at most ${MAX_HEADERS} and ${MAX_HEADER_BYTES} bytes together; names are RFC 9110 tokens, values hold no CR or LF. Sent with the main document and every request to the target's own origin (and to a same-site origin it redirects to), never to another origin. User-Agent and Accept-Language are also what the page's scripts see. Refused: Host, Connection, Content-Length, Transfer-Encoding, Upgrade, TE, Keep-Alive, Trailer, Proxy-*, Cookie (use cookies). A request with headers is never stored nor answered from the store (X-Cache: BYPASS).`,
  },
  cookies: {
    description: `Cookies set in the request's own browser context before the page loads, at most ${MAX_COOKIES}: {name, value, domain?, path?, secure?, http_only?, same_site?}. domain defaults to the URL's host (a host-only cookie); it must be that host or a parent domain of it below the public suffix. http_only cookies are hidden from document.cookie. A request with cookies is never stored nor answered from the store (X-Cache: BYPASS).`,
  },
  device: {
    description:
      '"desktop": the browser as it is. "mobile": a phone (390×844 CSS px at device pixel ratio 3, touch, a mobile Chrome user agent, (pointer: coarse)), so the page serves its mobile version.',
    default: 'desktop',
  },
  viewport: {
    description: `The window's size in CSS pixels, overriding the device's: width ${VIEWPORT_WIDTH.min}–${VIEWPORT_WIDTH.max}, height ${VIEWPORT_HEIGHT.min}–${VIEWPORT_HEIGHT.max}, both required integers.`,
  },
};

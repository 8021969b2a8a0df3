// Which requests count as open for networkIdle / networkAlmostIdle (docs/api.md "Waiting": streams are
// not loads). A stream stays open for as long as the page lives, so counting it would hold every such
// page for its whole budget: a WebSocket (a live chat), an EventSource or any `text/event-stream`
// response (server-sent events), a media stream (a playing video, its range requests) and a ping or
// beacon (navigator.sendBeacon, <a ping>: fire-and-forget, nothing on the page waits for it). Every
// other request counts while open, long-polls and streamed fetch bodies included: their answer may
// still change the page. Pure: network-tracker.ts feeds it CDP's resource types and content types.

/** CDP resource types (Network.ResourceType, as puppeteer lowercases them) that are never loads. */
const STREAM_RESOURCE_TYPES: ReadonlySet<string> = new Set(['websocket', 'eventsource', 'media', 'ping']);

/** Whether a request of this resource type counts as open from the moment it is sent. */
export function countsWhileOpen(resourceType: string): boolean {
  return !STREAM_RESOURCE_TYPES.has(resourceType.toLowerCase());
}

/** Whether a response with this Content-Type is an event stream, which stops counting once its headers arrive. */
export function isEventStream(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'text/event-stream';
}

// The browser side as the Worker sees it: the Durable Object class that renders pages, and the plain
// types of a render call and its outcome. Everything else in this folder runs inside that Durable
// Object and is private to it.
export { BrowserHub } from './hub.js';
export type { ContentForm, LoadOptions, PageSetup, ProxyRoute, RenderCall, RenderedPage, RenderOutcome } from './render-call.js';

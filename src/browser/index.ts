// The browser side as the Worker sees it: the Durable Object classes (a directory per launch location
// that admits requests to that location's hubs, each hub holding one browser), and the plain types of
// a render call and its outcome. Everything else in this folder runs inside them and is private.
export { BrowserDirectory } from './fleet/directory.js';
export { BrowserHub } from './fleet/hub.js';
export type {
  ContentForm,
  FleetSettings,
  LoadOptions,
  PageSetup,
  ProxyRoute,
  RenderCall,
  RenderedPage,
  RenderOutcome,
} from './render-call.js';

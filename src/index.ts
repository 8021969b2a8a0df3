// Worker entry point: the app, and the Durable Object class wrangler binds as BROWSER_HUB.
import { createApp } from './app.js';

export { BrowserHub } from './browser-hub.js';
export default createApp();

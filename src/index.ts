// Worker entry point: the app, and the Durable Object class wrangler binds as BROWSER_HUB.
import { createApp } from './api/app.js';

export { BrowserHub } from './browser/index.js';
export default createApp();

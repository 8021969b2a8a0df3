// Worker entry point: the app, and the Durable Object classes wrangler binds as BROWSER_HUB and BROWSER_DIRECTORY.
import { createApp } from './api/app.js';

export { BrowserDirectory, BrowserHub } from './browser/index.js';
export default createApp();

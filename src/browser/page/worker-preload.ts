// Runs a preload in every dedicated worker of a page before the worker's own script. The browser
// holds a new worker until its debugger lets it run; puppeteer announces the worker ('workercreated',
// synchronously, in the page's or a frame's session) before it sends that go-ahead in the worker's
// session, and a session's commands run in order, so a script sent from the announcement runs first.
// Shared and service workers are not announced to the page and are not reached (docs/guard.md
// "What is not prevented").
import type { Page, WebWorker } from '@cloudflare/puppeteer';

export function preloadWorkers(page: Page, script: string): void {
  page.on('workercreated', (worker: WebWorker) => {
    // A worker gone before the script ran needs nothing.
    void worker.client.send('Runtime.evaluate', { expression: script }).catch(() => undefined);
  });
}

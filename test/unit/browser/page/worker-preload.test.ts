// preloadWorkers (worker-preload.ts): each worker the page announces gets the script in its own
// session, sent at once (before puppeteer's go-ahead, which follows the announcement); a worker gone
// before it ran is no error. The real ordering is shown end to end in subresource-guard.test.ts.
import { EventEmitter } from 'node:events';
import type { Page } from '@cloudflare/puppeteer';
import { describe, expect, it } from 'vitest';
import { preloadWorkers } from '../../../../src/browser/page/worker-preload.js';

function fakeWorker(fail = false) {
  const sent: { method: string; params: unknown }[] = [];
  const client = {
    send: (method: string, params: unknown) => {
      sent.push({ method, params });
      return fail ? Promise.reject(new Error('Target closed')) : Promise.resolve({});
    },
  };
  return { worker: { client }, sent };
}

describe('preloadWorkers', () => {
  it('sends the script to each announced worker synchronously, in its own session', () => {
    const page = new EventEmitter();
    preloadWorkers(page as unknown as Page, 'guard();');
    const one = fakeWorker();
    const two = fakeWorker();
    page.emit('workercreated', one.worker);
    expect(one.sent).toEqual([{ method: 'Runtime.evaluate', params: { expression: 'guard();' } }]);
    page.emit('workercreated', two.worker);
    expect(two.sent).toHaveLength(1);
    expect(one.sent).toHaveLength(1);
  });

  it('ignores a worker that is gone before the script ran', async () => {
    const page = new EventEmitter();
    preloadWorkers(page as unknown as Page, 'guard();');
    const gone = fakeWorker(true);
    page.emit('workercreated', gone.worker);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(gone.sent).toHaveLength(1);
  });
});

// The bounds of a screenshot (docs/api.md "Links, images and screenshots") on a Worker configured
// small: a picture over MAX_CONTENT_BYTES is 502 content_too_large, and MAX_SCREENSHOT_HEIGHT cuts a
// full page where it says, whatever the default.
import { describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';

const ctx = useWorker({ vars: { MAX_CONTENT_BYTES: '200000', MAX_SCREENSHOT_HEIGHT: '12000' } });

const fetchBands = (screenshot: object) =>
  ctx.worker.fetchPage({ url: ctx.fixtures.url('/views/bands'), wait_event: 'load', screenshot: { full_page: true, ...screenshot } });

describe('screenshot bounds', () => {
  it('answers 502 content_too_large for a picture over MAX_CONTENT_BYTES', async () => {
    // 12,000 px of colour bands as PNG: about 230 KB, over the 200,000 bytes configured.
    const response = await fetchBands({});
    expect(response.status).toBe(502);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('content_too_large');
  });

  it('cuts a full page at MAX_SCREENSHOT_HEIGHT', async () => {
    // WebP keeps the same picture small (about 10 KB).
    const response = await fetchBands({ type: 'webp', quality: 80 });
    expect(response.status).toBe(200);
    expect(response.headers.get('X-Screenshot-Truncated')).toBe('true');
    const { screenshot } = (await response.json()) as { screenshot: { type: string; height: number } };
    expect(screenshot).toMatchObject({ type: 'image/webp', height: 12_000 });
  });
});

import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deliveryBackoffMs, webhookSignature } from '../../../src/jobs/webhook.js';

describe('webhookSignature', () => {
  it('is sha256=<hex> of the HMAC-SHA256 of the exact body', async () => {
    const body = '{"type":"started","id":"x","metadata":null}';
    expect(await webhookSignature('secret', body)).toBe(`sha256=${createHmac('sha256', 'secret').update(body).digest('hex')}`);
  });
});

describe('deliveryBackoffMs', () => {
  it('waits longer each time', () => {
    expect([1, 2, 3].map(deliveryBackoffMs)).toEqual([1000, 4000, 16000]);
  });
});

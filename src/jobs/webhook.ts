// A job's webhook (docs/api.md "Sites"): each event a JSON POST of `{"type", "id", "metadata", "data"?}`
// signed `X-Page-Fetch-Signature: sha256=<hex>`, HMAC-SHA256 of the exact body under WEBHOOK_SECRET.
// The URL passes the same guard as a target; a redirect is not followed (the receiver is named, not
// found); a delivery is done when the receiver answers 2xx within its time.
import type { TargetGuard } from '../guard/policy.js';

export const WEBHOOK_EVENTS = ['started', 'page', 'completed', 'failed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const SIGNATURE_HEADER = 'X-Page-Fetch-Signature';
const DELIVERY_TIMEOUT_MS = 10_000;
/** Tries of one delivery: the first and 5 more, 1 s, 4 s, 16 s, 64 s and 256 s apart. */
export const MAX_DELIVERY_ATTEMPTS = 6;

export function deliveryBackoffMs(attempt: number): number {
  return 1000 * 4 ** (attempt - 1);
}

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** `sha256=<hex>` of `body` under `secret`. */
export async function webhookSignature(secret: string, body: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return `sha256=${hex(await crypto.subtle.sign('HMAC', key, encoder.encode(body)))}`;
}

/** POSTs one signed event; true when the receiver took it (2xx). Never throws. */
export async function deliverWebhook(url: string, body: string, secret: string, guard: TargetGuard): Promise<boolean> {
  try {
    guard.assertUrlAllowed(url);
    const response = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      headers: { 'Content-Type': 'application/json', [SIGNATURE_HEADER]: await webhookSignature(secret, body) },
      body,
    });
    await response.body?.cancel();
    return response.status >= 200 && response.status < 300;
  } catch {
    return false;
  }
}

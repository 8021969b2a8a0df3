// Keeps the browser from downloading what HTML or markdown output cannot contain: images, media and
// fonts. The elements stay in the DOM (an <img> keeps its src); only the bytes are not fetched.
// CDP's Fetch domain intercepts by resource type, so only those requests pause (one round trip
// each, to fail them); documents, scripts, styles and XHR are never held up.
import type { CDPSession, Page } from '@cloudflare/puppeteer';

export const BLOCKED_RESOURCE_TYPES = ['Image', 'Media', 'Font'] as const;

interface RequestPausedEvent {
  requestId: string;
}

/** Starts blocking on `page` through a CDP session of its own (puppeteer's session stays untouched). */
export async function blockHeavyResources(page: Page): Promise<CDPSession> {
  const session = await page.createCDPSession();
  session.on('Fetch.requestPaused', (event: RequestPausedEvent) => {
    // The page may already be closing; a failed reply changes nothing then.
    void session.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' }).catch(() => undefined);
  });
  await session.send('Fetch.enable', {
    patterns: BLOCKED_RESOURCE_TYPES.map((resourceType) => ({ resourceType, requestStage: 'Request' as const })),
  });
  return session;
}

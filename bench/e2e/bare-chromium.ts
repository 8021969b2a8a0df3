// The Chromium the tests and wrangler's emulation run (Debian's, see scripts/setup.mjs), launched
// directly: what a bench measures a page against when no Worker or Durable Object stands between.
import { type Browser, chromium } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';

export function launchBareChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

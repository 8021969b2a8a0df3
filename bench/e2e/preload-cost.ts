// `npm run bench:preload`: what the consent preload costs one document, in a bare Chromium (no Worker,
// no Durable Object), so nothing but the script is measured. The benchmark article is loaded in a
// fresh context with a one-line init script, then with build/preload-consent.js (built from the
// working tree first; its binding stubbed), taking turns; each load reports when DOMContentLoaded ended
// (from the navigation's start) and how long the preload's own run took (from marks around it; the
// compile before it is in the first figure only). Medians.
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { CONSENT_BINDING } from '../../src/browser/in-page/protocol.js';
import { startFixtureServer } from '../../test/e2e/support/fixture-server.js';
import { launchBareChromium } from './bare-chromium.js';
import { percentile } from './load.js';

const LOADS = 40;
const WARM_UP = 3;
/** Where the page keeps the marks around the preload's run. */
const MARKS = '__preloadMarks';

interface Load {
  domContentLoaded: number;
  run: number;
}

async function measure(browser: Browser, url: string, script: string): Promise<Load> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.addInitScript(`window.${CONSENT_BINDING} = () => {}; window.${MARKS} = [];`);
    await page.addInitScript(`window.${MARKS}.push(performance.now());\n${script}\n;window.${MARKS}.push(performance.now());`);
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    // A string: this file is checked without the DOM's types.
    return (await page.evaluate(`(() => {
      const navigation = performance.getEntriesByType('navigation')[0];
      const [start = 0, end = 0] = window.${MARKS};
      return { domContentLoaded: navigation.domContentLoadedEventEnd, run: end - start };
    })()`)) as Load;
  } finally {
    await context.close();
  }
}

async function main() {
  const scripts: [string, string][] = [
    ['one-line init script', 'void 0;'],
    ['consent preload', readFileSync(new URL('../../build/preload-consent.js', import.meta.url), 'utf8')],
  ];
  const fixtures = await startFixtureServer();
  const browser = await launchBareChromium();
  try {
    const url = fixtures.url('/bench/article?fetch_ms=0');
    const loads: Load[][] = scripts.map(() => []);
    for (let i = 0; i < WARM_UP + LOADS; i++) {
      for (const [side, [, script]] of scripts.entries()) {
        const load = await measure(browser, url, script);
        if (i >= WARM_UP) loads[side]!.push(load);
      }
    }
    const median = (values: number[]) => percentile(values, 50).toFixed(1);
    console.log(`# Consent preload, one document: benchmark article, a fresh context per load, ${LOADS} loads each, medians\n`);
    console.log('| init script | DOMContentLoaded ended (ms) | its own run (ms) |');
    console.log('|---|---|---|');
    scripts.forEach(([name], side) => {
      const runs = loads[side]!;
      console.log(`| ${name} | ${median(runs.map((l) => l.domContentLoaded))} | ${median(runs.map((l) => l.run))} |`);
    });
  } finally {
    await browser.close();
    await fixtures.close();
  }
}

await main();

// `npm run bench:preload [-- <git revision>]`: what the consent preload costs one document, in a bare
// Chromium (no Worker, no Durable Object), so nothing but the script is measured. The benchmark
// article is loaded in a fresh context with a one-line init script, then with build/preload-consent.js
// (built from the working tree first; its binding stubbed), and with a revision the preload built at
// that revision too, taking turns (each round starting with the next); each load reports when
// DOMContentLoaded ended (from the navigation's start) and how long the preload's own run took (from
// marks around it; the compile before it is in the first figure only). Medians, and the median of
// each round's difference from the one-line script's load of the same round (steadier than the
// difference of the medians).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { CONSENT_BINDING } from '../../src/in-page/protocol.js';
import { startFixtureServer } from '../../test/e2e/support/fixture-server.js';
import { checkout } from './ab-workers.js';
import { launchBareChromium } from './bare-chromium.js';
import { percentile } from './load.js';

const LOADS = 120;
/** How long a load is held after its load event: the engine looks at idle, then every 500 ms. */
const HOLD_MS = 1200;
const WARM_UP = 3;
/** Where the page keeps the marks around the preload's run. */
const MARKS = '__preloadMarks';

interface Load {
  domContentLoaded: number;
  run: number;
  /** The renderer's main-thread task time from the page's creation to HOLD_MS after its load event (ms). */
  taskTime: number;
}

async function measure(browser: Browser, url: string, script: string): Promise<Load> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const session = await context.newCDPSession(page);
    await session.send('Performance.enable');
    await page.addInitScript(`window.${CONSENT_BINDING} = () => {}; window.${MARKS} = [];`);
    await page.addInitScript(`window.${MARKS}.push(performance.now());\n${script}\n;window.${MARKS}.push(performance.now());`);
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    // A string: this file is checked without the DOM's types.
    const timing = (await page.evaluate(`(() => {
      const navigation = performance.getEntriesByType('navigation')[0];
      const [start = 0, end = 0] = window.${MARKS};
      return { domContentLoaded: navigation.domContentLoadedEventEnd, run: end - start };
    })()`)) as Omit<Load, 'taskTime'>;
    await page.waitForLoadState('load');
    await page.waitForTimeout(HOLD_MS);
    const { metrics } = await session.send('Performance.getMetrics');
    const taskSeconds = metrics.find((metric) => metric.name === 'TaskDuration')?.value ?? Number.NaN;
    return { ...timing, taskTime: taskSeconds * 1000 };
  } finally {
    await context.close();
  }
}

/** The consent preload as built at `revision`. */
function preloadAt(revision: string): string {
  const tree = checkout(revision);
  try {
    const dir = join(tree.config, '..');
    execFileSync('node', ['scripts/build-page-script.mjs'], { cwd: dir, stdio: 'ignore' });
    return readFileSync(join(dir, 'build/preload-consent.js'), 'utf8');
  } finally {
    tree.remove();
  }
}

async function main() {
  const revision = process.argv[2];
  const scripts: [string, string][] = [
    ['one-line init script', 'void 0;'],
    ['consent preload (working tree)', readFileSync(new URL('../../build/preload-consent.js', import.meta.url), 'utf8')],
    ...(revision === undefined ? [] : [[`consent preload at ${revision}`, preloadAt(revision)] as [string, string]]),
  ];
  const fixtures = await startFixtureServer();
  const browser = await launchBareChromium();
  try {
    const url = fixtures.url('/bench/article?fetch_ms=0');
    const loads: Load[][] = scripts.map(() => []);
    for (let i = 0; i < WARM_UP + LOADS; i++) {
      // Each round starts with another script: a load runs measurably slower or faster by its place in the round.
      for (let turn = 0; turn < scripts.length; turn++) {
        const side = (turn + i) % scripts.length;
        const load = await measure(browser, url, scripts[side]![1]);
        if (i >= WARM_UP) loads[side]!.push(load);
      }
    }
    const median = (values: number[]) => percentile(values, 50).toFixed(1);
    const baseline = loads[0]!;
    console.log(`# Consent preload, one document: benchmark article, a fresh context per load, ${LOADS} loads each, medians\n`);
    console.log(
      '| init script | size (KB) | DOMContentLoaded ended (ms) | later than the one-line script, same round (ms) | its own run (ms) ' +
        `| renderer task time to ${HOLD_MS} ms after load (ms) | more than the one-line script's, same round (ms) |`,
    );
    console.log('|---|---|---|---|---|---|---|');
    scripts.forEach(([name, script], side) => {
      const runs = loads[side]!;
      const later = runs.map((load, round) => load.domContentLoaded - baseline[round]!.domContentLoaded);
      const moreTask = runs.map((load, round) => load.taskTime - baseline[round]!.taskTime);
      const size = (script.length / 1024).toFixed(0);
      console.log(
        `| ${name} | ${size} | ${median(runs.map((l) => l.domContentLoaded))} | ${median(later)} | ${median(runs.map((l) => l.run))} ` +
          `| ${median(runs.map((l) => l.taskTime))} | ${median(moreTask)} |`,
      );
    });
  } finally {
    await browser.close();
    await fixtures.close();
  }
}

await main();

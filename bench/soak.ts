// `npm run soak`: 300 requests at concurrency 8 through wrangler dev and a real Chromium, mixing good,
// slow, failing and hostile targets. Passes when every answer has its expected status, no browser
// context or Chromium process is left over, and the memory of the Worker runtime and the browser
// stays flat. Prints the figures; exits non-zero on any failure.
import { readFileSync, readdirSync } from 'node:fs';
import { closedPort, startFixtureServer } from '../test/e2e/support/fixture-server.js';
import { pagesPerBrowser } from '../test/e2e/support/processes.js';
import { startWorker, type WorkerHandle } from '../test/e2e/support/worker.js';
import { runLoad } from './e2e/load.js';

const TOTAL = 300;
const CONCURRENCY = 8;
const TOKENS = ['soak-token-a1', 'soak-token-b2', 'soak-token-c3', 'soak-token-d4'];

interface Case {
  name: string;
  body: object | string;
  expected: number[];
}

function rssKiB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function processes(): { pid: number; ppid: number; cmd: string }[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return [{ pid: Number(name), ppid, cmd: readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ') }];
      } catch {
        return [];
      }
    });
}

/** RSS of the workerd processes under this worker, and of each browser with its children. */
function memory(worker: WorkerHandle): { workerdMiB: number; browserMiB: number } {
  const all = processes();
  const descendants = (root: number): number[] => {
    const out = [root];
    for (let i = 0; i < out.length; i++) for (const p of all) if (p.ppid === out[i]) out.push(p.pid);
    return out;
  };
  const workerd = all.filter((p) => p.cmd.includes('workerd') && p.cmd.includes(`${worker.origin.split(':').at(-1)}`));
  const browsers = worker.liveBrowserPids().flatMap(descendants);
  const sum = (pids: number[]) => pids.reduce((total, pid) => total + rssKiB(pid), 0) / 1024;
  return { workerdMiB: sum(workerd.map((p) => p.pid)), browserMiB: sum(browsers) };
}

/** Pages open in the browser, from its DevTools endpoint (the port Chromium writes into its profile). */
async function openPages(worker: WorkerHandle): Promise<number> {
  return (await pagesPerBrowser(worker.liveBrowserPids())).reduce((sum, count) => sum + count, 0);
}

async function main() {
  const fixtures = await startFixtureServer();
  const worker = await startWorker({ vars: { API_TOKENS: TOKENS.join(','), NAVIGATION_TIMEOUT_MS: '4000' } });
  const dead = `http://127.0.0.1:${await closedPort()}/`;
  const cases: Case[] = [
    { name: 'article html', body: { url: fixtures.url('/pages/article.html') }, expected: [200] },
    { name: 'article markdown', body: { url: fixtures.url('/pages/article.html'), output_format: 'markdown' }, expected: [200] },
    { name: 'late fetch', body: { url: fixtures.url('/pages/late-fetch.html') }, expected: [200] },
    { name: 'slow document', body: { url: fixtures.url('/slow-doc?ms=1500'), wait_ms: 1000 }, expected: [200] },
    { name: 'never idle', body: { url: fixtures.url('/pages/never-idle.html'), wait_ms: 1500 }, expected: [200] },
    { name: 'target 500', body: { url: fixtures.url('/status/500'), wait_event: 'load' }, expected: [200] },
    { name: 'refused', body: { url: dead }, expected: [502] },
    { name: 'pdf', body: { url: fixtures.url('/file.pdf') }, expected: [502] },
    // 20 hops; under this load they can outlast the 4 s navigation timeout, which is then the answer.
    { name: 'redirect loop', body: { url: fixtures.url('/hostile/redirect-loop') }, expected: [502, 504] },
    { name: 'invalid body', body: { url: 'nope', wait_ms: -1 }, expected: [400] },
    { name: 'dialogs and popups', body: { url: fixtures.url('/pages/dialogs.html'), wait_event: 'load' }, expected: [200] },
    { name: 'reset mid-body', body: { url: fixtures.url('/hostile/reset-mid-body'), wait_ms: 2000 }, expected: [200, 502] },
    { name: 'headers then hang', body: { url: fixtures.url('/hostile/headers-then-hang'), wait_ms: 1000 }, expected: [200, 504] },
    { name: 'infinite loop', body: { url: fixtures.url('/pages/infinite-loop.html'), wait_ms: 1000 }, expected: [504] },
    { name: 'self-navigation', body: { url: fixtures.url('/pages/self-navigate.html') }, expected: [200] },
  ];
  const unexpected: string[] = [];
  let next = 0;
  const send = async () => {
    const index = next++;
    const testCase = cases[index % cases.length]!;
    const started = performance.now();
    const response = await fetch(`${worker.origin}/api/fetch`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKENS[index % TOKENS.length]}` },
      body: JSON.stringify(testCase.body),
    });
    await response.arrayBuffer();
    if (!testCase.expected.includes(response.status)) unexpected.push(`${testCase.name}: ${response.status}`);
    return { ms: performance.now() - started, status: response.status };
  };
  let failed = false;
  try {
    await runLoad(send, CONCURRENCY, 30); // warm-up: browser launched, caches and pools filled
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const before = memory(worker);
    // The browser's first tab and the prepared spare pages are always there.
    const pagesBefore = await openPages(worker);
    const result = await runLoad(send, CONCURRENCY, TOTAL);
    await new Promise((resolve) => setTimeout(resolve, 2000)); // contexts close off the response path
    const after = memory(worker);
    const pages = await openPages(worker);
    const statuses = new Map<number, number>();
    for (const sample of result.samples) statuses.set(sample.status, (statuses.get(sample.status) ?? 0) + 1);
    const growth = (a: number, b: number) => (a > 0 ? ((b - a) / a) * 100 : 0);
    console.log(`soak: ${result.samples.length} requests at concurrency ${CONCURRENCY} in ${(result.wallMs / 1000).toFixed(1)} s`);
    console.log(
      `statuses: ${[...statuses]
        .sort()
        .map(([status, n]) => `${status}×${n}`)
        .join(', ')}`,
    );
    console.log(`unexpected statuses: ${unexpected.length}${unexpected.length ? ' (' + unexpected.slice(0, 10).join('; ') + ')' : ''}`);
    if (unexpected.length > 0) {
      // The Worker logs the cause of every 5xx; show the ones that are not the expected kinds.
      const causes = worker
        .logs()
        .split('\n')
        .filter((line) => line.includes('"code":"') && !/target_timeout|target_unreachable|unsupported_content/.test(line));
      console.log(causes.slice(0, 10).join('\n'));
    }
    console.log(`browsers launched: ${worker.launchedBrowserCount()}, running now: ${worker.liveBrowserPids().length}`);
    console.log(`pages open in the browser: ${pagesBefore} before the run, ${pages} after (first tab + the prepared spare pages)`);
    console.log(
      `workerd RSS: ${before.workerdMiB.toFixed(0)} → ${after.workerdMiB.toFixed(0)} MiB (${growth(before.workerdMiB, after.workerdMiB).toFixed(0)}%)`,
    );
    console.log(
      `browser RSS: ${before.browserMiB.toFixed(0)} → ${after.browserMiB.toFixed(0)} MiB (${growth(before.browserMiB, after.browserMiB).toFixed(0)}%)`,
    );
    failed =
      unexpected.length > 0 ||
      pages > pagesBefore ||
      growth(before.workerdMiB, after.workerdMiB) > 50 ||
      growth(before.browserMiB, after.browserMiB) > 50;
  } finally {
    await worker.stop();
    await fixtures.close();
  }
  const leftover = worker.liveBrowserPids().length;
  console.log(`Chromium processes left after stopping: ${leftover}`);
  console.log(failed || leftover > 0 ? 'SOAK FAILED' : 'SOAK PASSED');
  if (failed || leftover > 0) process.exitCode = 1;
}

await main();

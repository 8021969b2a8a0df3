// The examples in examples/ run against the real Worker: each prints the markdown of a fixture page,
// and reports an error answer on stderr (or, for curl, its JSON body) with a non-zero exit.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useWorker } from '../support/e2e-hooks.js';
import { TEST_TOKEN } from '../support/worker.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// Asynchronous on purpose: the fixture server runs in this process and must keep answering.
const run = promisify(execFile);
const ctx = useWorker();

const EXAMPLES: [string, string, string[]][] = [
  ['curl.sh', 'bash', ['examples/curl.sh']],
  ['fetch.ts', 'node_modules/.bin/tsx', ['examples/fetch.ts']],
  ['fetch.py', 'python3', ['examples/fetch.py']],
];

function runExample(command: string, args: string[], target: string, token = TEST_TOKEN, extra: string[] = [], moreEnv: object = {}) {
  const env = { ...process.env, PAGE_FETCH_URL: ctx.worker.origin, PAGE_FETCH_TOKEN: token, ...moreEnv };
  return run(command, [...args, target, ...extra], { cwd: ROOT, env, timeout: 60_000 });
}

describe('examples', () => {
  it.each(EXAMPLES)('%s prints the markdown of the page', async (_name, command, args) => {
    const { stdout } = await runExample(command, args, ctx.fixtures.url('/pages/article.html'));
    expect(stdout).toMatch(/^# An article$/m);
    expect(stdout).not.toContain('<h1');
  });

  it.each(EXAMPLES.filter(([name]) => name !== 'curl.sh'))(
    '%s prints the page title from its metadata and the cache outcome to stderr; a second run is served from the store',
    async (name, command, args) => {
      const target = ctx.fixtures.url(`/pages/metadata.html?example=${name}`);
      expect((await runExample(command, args, target)).stderr).toBe('title: Story title\ncache: MISS\n');
      await new Promise((resolve) => setTimeout(resolve, 300)); // the render is stored after the answer
      expect((await runExample(command, args, target)).stderr).toBe('title: Story title\ncache: HIT\n');
    },
  );

  it.each(EXAMPLES)('%s waits for the selector given as its second argument', async (name, command, args) => {
    // A selector with a quote and a backslash escape, so each example's JSON quoting is exercised.
    const target = ctx.fixtures.url(`/wait/late-element?example=${name}`);
    const { stdout } = await runExample(command, args, target, TEST_TOKEN, ['div[id="late"], #\\6c ate']);
    expect(stdout).toContain('Late element arrived');
  });

  it.each(EXAMPLES)('%s asks for the page a phone gets with PAGE_FETCH_DEVICE=mobile', async (name, command, args) => {
    const target = ctx.fixtures.url(`/visit/probe?example=${name}`);
    const { stdout } = await runExample(command, args, target, TEST_TOKEN, [], { PAGE_FETCH_DEVICE: 'mobile' });
    expect(stdout).toContain('coarse: true');
    expect(stdout).toContain('size: 390x844');
  });

  it.each(EXAMPLES)('%s exits non-zero and names the error code for a refused token', async (_name, command, args) => {
    const failure = await runExample(command, args, ctx.fixtures.url('/pages/article.html'), 'wrong-token').then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failure?.code).toBeGreaterThan(0);
    expect(`${failure?.stdout}${failure?.stderr}`).toContain('unauthorized');
  });
});

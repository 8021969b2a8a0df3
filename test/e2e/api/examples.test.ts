// The examples in examples/ run against the real Worker: each prints the markdown of a fixture page,
// and reports an error answer on stderr (or, for curl, its JSON body) with a non-zero exit; curl.sh's
// site operations and crawl.ts (one markdown file per page) run on the fixture site.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

describe('site examples', () => {
  const env = () => ({ ...process.env, PAGE_FETCH_URL: ctx.worker.origin, PAGE_FETCH_TOKEN: TEST_TOKEN });
  const curl = (...args: string[]) => run('bash', ['examples/curl.sh', ...args], { cwd: ROOT, env: env(), timeout: 120_000 });

  it('curl.sh maps, crawls, waits, pages through, cancels and batches', { timeout: 180_000 }, async () => {
    const mapped = JSON.parse((await curl('map', ctx.fixtures.url('/site/'), 'blog')).stdout) as { links: { url: string }[] };
    expect(mapped.links.map((link) => link.url)).toContain(ctx.fixtures.url('/site/blog/first'));

    const crawl = JSON.parse((await curl('crawl', ctx.fixtures.url('/site/'), '3')).stdout) as { id: string; url: string };
    expect(crawl.url).toBe(`/api/jobs/${crawl.id}`);
    expect((await curl('wait', crawl.id)).stdout).toBe('completed\n');
    const answers = (await curl('pages', crawl.id)).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { pages: { url: string; state: string }[]; next_cursor: string | null });
    expect(answers.at(-1)!.next_cursor).toBeNull();
    expect(answers.flatMap((answer) => answer.pages).find((page) => page.url === ctx.fixtures.url('/site/'))?.state).toBe('fetched');
    // A finished job keeps its status.
    expect(JSON.parse((await curl('cancel', crawl.id)).stdout)).toMatchObject({ id: crawl.id, status: 'completed' });

    const batch = JSON.parse((await curl('batch', ctx.fixtures.url('/site/docs/intro'), ctx.fixtures.url('/site/docs/guide'))).stdout) as {
      id: string;
    };
    expect((await curl('wait', batch.id)).stdout).toBe('completed\n');
  });

  it('crawl.ts writes one markdown file per fetched page, named from its URL path', { timeout: 180_000 }, async () => {
    const out = mkdtempSync(join(tmpdir(), 'page-fetch-crawl-'));
    try {
      const { stdout, stderr } = await run('node_modules/.bin/tsx', ['examples/crawl.ts', ctx.fixtures.url('/site/'), out, '5'], {
        cwd: ROOT,
        env: env(),
        timeout: 150_000,
      });
      const files = readdirSync(out).sort();
      expect(stdout.trim().split('\n').sort()).toEqual(files.map((file) => join(out, file)));
      expect(stderr).toMatch(/^completed: \{.*"fetched":\d/m);
      const port = new URL(ctx.fixtures.origin).port;
      expect(files).toContain(`127.0.0.1_${port}_site_index.md`);
      expect(files.every((file) => /^[A-Za-z0-9._-]+\.md$/.test(file))).toBe(true);
      const home = readFileSync(join(out, `127.0.0.1_${port}_site_index.md`), 'utf8');
      expect(home.startsWith(`<!-- ${ctx.fixtures.url('/site/')} -->`)).toBe(true);
      expect(home).toContain('Site home');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

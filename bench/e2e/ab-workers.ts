// The two Workers of an A/B run (ab.ts, markdown-ab.ts): A at another revision, checked out into a
// temporary git worktree that shares this checkout's node_modules; B from a copy of the working
// tree's sources (snapshot.ts). Both up at once, with the fixture server.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FixtureServer, startFixtureServer } from '../../test/e2e/support/fixture-server.js';
import { startWorker, type WorkerHandle } from '../../test/e2e/support/worker.js';
import { snapshotSources } from './snapshot.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Checkout {
  /** Its wrangler.toml, an absolute path for startWorker's `config`. */
  config: string;
  remove(): void;
}

/** `revision` checked out into a temporary worktree that shares this checkout's node_modules. */
export function checkout(revision: string): Checkout {
  const dir = join(mkdtempSync(join(tmpdir(), 'page-fetch-ab-')), 'tree');
  execFileSync('git', ['worktree', 'add', '--detach', dir, revision], { cwd: ROOT, stdio: 'ignore' });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const remove = () => {
    execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: ROOT, stdio: 'ignore' });
    rmSync(join(dir, '..'), { recursive: true, force: true });
  };
  const config = join(dir, 'wrangler.toml');
  if (!existsSync(config)) {
    remove();
    throw new Error(`${revision} has no wrangler.toml`);
  }
  return { config, remove };
}

/** Runs `run` with A (`revision`) and B (the working tree) up, and stops both after. */
export async function withAbWorkers(revision: string, run: (a: WorkerHandle, b: WorkerHandle, fixtures: FixtureServer) => Promise<void>) {
  const a = checkout(revision);
  const b = snapshotSources();
  const fixtures = await startFixtureServer();
  const workers: WorkerHandle[] = [];
  try {
    // An idle close inside the run would count a relaunch against whichever side it hit.
    const vars = { BROWSER_IDLE_CLOSE_MS: '3600000' };
    // One at a time: if B fails to start, A is already in the list that `finally` stops.
    workers.push(await startWorker({ config: a.config, vars }));
    workers.push(await startWorker({ config: b.config, vars }));
    await run(workers[0]!, workers[1]!, fixtures);
  } finally {
    for (const worker of workers) await worker.stop();
    await fixtures.close();
    b.remove();
    a.remove();
  }
}

// The sources the benchmark's Workers run, copied when the run starts. wrangler dev rebuilds and
// restarts the Worker whenever a file it bundled changes, and a restart mid-run (someone editing
// src/ meanwhile) drops the shared browser and fails the requests in flight: the figures would mix
// two versions of the code and count relaunches as the service's. A copy nobody edits avoids that.
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** What the benchmark Worker's bundle is built from (its imports reach only these and node_modules; the build script bundles the in-page script). */
const COPIED = [
  'src',
  'bench/worker',
  'scripts/build-page-script.mjs',
  'scripts/consent-rule-split.mjs',
  'scripts/ascii-only.mjs',
  'package.json',
  'tsconfig.json',
];

export interface SourceSnapshot {
  /** The copied bench/worker/wrangler.toml, an absolute path for startWorker's `config`. */
  config: string;
  remove(): void;
}

export function snapshotSources(): SourceSnapshot {
  const dir = mkdtempSync(join(tmpdir(), 'page-fetch-bench-'));
  for (const path of COPIED) cpSync(join(ROOT, path), join(dir, path), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return { config: join(dir, 'bench/worker/wrangler.toml'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** How often wrangler restarted the Worker after a change (0 for a snapshot, unless it was edited). */
export function reloadCount(logs: string): number {
  return logs.match(/Reloading local server/g)?.length ?? 0;
}

// Another revision of the project, checked out into a temporary git worktree for an A/B run
// (ab.ts, markdown-ab.ts); it shares this checkout's node_modules.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Checkout {
  /** Its wrangler.toml, an absolute path for startWorker's `config`. */
  config: string;
  remove(): void;
}

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

// Runs an e2e Worker (wrangler, workerd and the browsers it launches) in a mount namespace of its own
// whose /etc/hosts also maps the given names to 127.0.0.1, so the Worker's own fetch() (robots.txt,
// sitemaps, webhooks) reaches the fixture servers under another host name, e.g. a subdomain. Chromium
// resolves `*.localhost` to loopback by itself. Needs `unshare` (Linux) and root or unprivileged user
// namespaces.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LoopbackNamesLaunch {
  command: string;
  args: string[];
  close(): void;
}

// Bind-mounts the hosts file, then becomes the Node process asked for (exec keeps the pid: the
// Chromium wrapper finds its run folder by its parent's).
const SCRIPT = `hosts="$1"; shift
mount --bind "$hosts" /etc/hosts || exit 1
exec "$@"`;

/** The command that starts `nodeArgs` (wrangler) with `names` resolving to 127.0.0.1. */
export function loopbackNamesLaunch(names: string[], nodeArgs: string[]): LoopbackNamesLaunch {
  const dir = mkdtempSync(join(tmpdir(), 'page-fetch-hosts-'));
  const hosts = join(dir, 'hosts');
  writeFileSync(hosts, `${readFileSync('/etc/hosts', 'utf8').trimEnd()}\n${names.map((name) => `127.0.0.1 ${name}`).join('\n')}\n`);
  // As root, a mount namespace alone; otherwise inside a user namespace that may create one.
  const unshare = process.getuid?.() === 0 ? ['-m'] : ['-rm'];
  return {
    command: 'unshare',
    args: [...unshare, 'sh', '-c', SCRIPT, 'sh', hosts, process.execPath, ...nodeArgs],
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}

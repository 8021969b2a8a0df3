#!/usr/bin/env node
// Prepares a fresh machine for `npm run dev` and `npm test`: npm packages, a Chromium for
// wrangler dev's Browser Rendering emulation, and `.dev.vars`. Idempotent; prints what it does.
// Offline, wrangler cannot download its pinned Chrome build, so we place a wrapper around
// Debian's Chromium at the exact path wrangler (miniflare) would have downloaded it to.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const WRAPPER_MARK = '# page-fetch chromium wrapper';

function log(message) {
  console.error(`[setup] ${message}`);
}

function run(cmd, args, options = {}) {
  execFileSync(cmd, args, { stdio: 'inherit', cwd: ROOT, ...options });
}

function ensureNpmPackages() {
  if (existsSync(join(ROOT, 'node_modules', 'wrangler', 'package.json'))) return;
  // `npm install`, not `npm ci`: see .ci/run (other platforms' optional binaries are not on this registry).
  log('installing npm packages (npm install)');
  run('npm', ['install', '--no-audit', '--no-fund']);
}

/** The Chrome version miniflare pins for its Browser Rendering emulation, read from the installed package. */
function wranglerChromeVersion() {
  const source = readFileSync(join(ROOT, 'node_modules/miniflare/dist/src/index.js'), 'utf8');
  const match = /browserVersion:\s*"(\d+\.\d+\.\d+\.\d+)"/.exec(source);
  if (!match) throw new Error('cannot find the Chrome version pinned by the installed miniflare');
  return match[1];
}

/** Same location as miniflare's getGlobalWranglerCachePath() (xdg-app-paths ".wrangler" cache). */
function wranglerCacheDir() {
  const xdg = process.env.XDG_CACHE_HOME;
  return join(xdg && xdg.length > 0 ? xdg : join(homedir(), '.cache'), '.wrangler');
}

function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** Installs Debian `packages` with apt-get, as root; false where that cannot be done here. */
function aptInstall(packages) {
  if (!isRoot() || !existsSync('/usr/bin/apt-get')) return false;
  log(`installing ${packages.join(', ')} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-qq'], { env });
  run('apt-get', ['install', '-y', '-qq', ...packages], { env });
  return true;
}

function ensureSystemChromium() {
  if (existsSync(SYSTEM_CHROMIUM)) return true;
  if (!aptInstall(['chromium'])) {
    log(`no ${SYSTEM_CHROMIUM}; wrangler will try to download its own Chrome (needs internet)`);
    return false;
  }
  return existsSync(SYSTEM_CHROMIUM);
}

// The guard's e2e tests run a Worker in a network namespace of its own (test/e2e/support/
// isolated-network.ts), made with util-linux's `unshare` and iproute2's `ip`.
function ensureNetworkTools() {
  const missing = [
    ['/usr/bin/unshare', 'util-linux'],
    ['/usr/sbin/ip', 'iproute2'],
  ].filter(([path]) => !existsSync(path) && !existsSync(path.replace('/usr', '')));
  if (missing.length === 0) return;
  if (!aptInstall(missing.map(([, name]) => name)))
    log(`missing ${missing.map(([path]) => path).join(', ')}: the guard's e2e tests need them`);
}

function wrapperScript() {
  // wrangler's emulation starts the browser with an empty environment, so per-run settings come
  // from a folder named after the launching wrangler process: the test harness creates it to learn
  // the pids of the browsers it caused (Chromium outlives wrangler dev) and to pass extra switches.
  return `#!/bin/sh
${WRAPPER_MARK}: runs the system Chromium where wrangler expects its pinned Chrome.
PATH=/usr/local/bin:/usr/bin:/bin
export PATH
run_dir="/tmp/page-fetch-chromium/$PPID"
if [ -d "$run_dir" ]; then
  # Tests of the binding refusing a browser: fail to start, as a launch refused upstream would
  # (one line per refused launch, so tests can count the retries).
  if [ -f "$run_dir/refuse-launch" ]; then echo $$ >> "$run_dir/refused"; exit 1; fi
  echo $$ > "$run_dir/pid-$$"
  # One line per launch: pids can be reused within a run, so pid files alone undercount launches.
  echo $$ >> "$run_dir/launches"
  # One switch per line, each passed as one argument (no word splitting, no globbing).
  if [ -f "$run_dir/flags" ]; then
    while IFS= read -r flag; do
      if [ -n "$flag" ]; then set -- "$flag" "$@"; fi
    done < "$run_dir/flags"
  fi
fi
if [ "$(id -u)" = "0" ]; then set -- --no-sandbox "$@"; fi
exec ${SYSTEM_CHROMIUM} "$@"
`;
}

function ensureBrowser() {
  const version = wranglerChromeVersion();
  const executable = join(wranglerCacheDir(), 'chrome', `linux-${version}`, 'chrome-linux64', 'chrome');
  const current = existsSync(executable) ? readFileSync(executable).subarray(0, 4096).toString('latin1') : null;
  if (current !== null && !current.includes(WRAPPER_MARK)) {
    log(`wrangler's own Chrome ${version} is present; leaving it`);
    return;
  }
  if (current === wrapperScript()) return;
  if (!ensureSystemChromium()) return;
  mkdirSync(dirname(executable), { recursive: true });
  writeFileSync(executable, wrapperScript());
  chmodSync(executable, 0o755);
  log(`placed a Chromium wrapper for wrangler's Chrome ${version} at ${executable}`);
}

function ensureDevVars() {
  const target = join(ROOT, '.dev.vars');
  if (existsSync(target)) return;
  copyFileSync(join(ROOT, '.dev.vars.example'), target);
  log('created .dev.vars from .dev.vars.example');
}

ensureNpmPackages();
ensureBrowser();
ensureNetworkTools();
ensureDevVars();

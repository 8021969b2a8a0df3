// Starts the real Worker under `wrangler dev` (workerd + Browser Rendering emulation + local
// Chromium) for one test file, and stops exactly what it started. Chromium outlives wrangler, so the
// Chromium wrapper (scripts/setup.mjs) records each browser's pid in /tmp/page-fetch-chromium/<pid
// of the wrangler process>/ and stop() ends those process groups by id. Logs are kept and printed
// only when a test fails.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type IsolatedNetwork, isolatedLaunch } from './isolated-network.js';
import { loopbackNamesLaunch } from './loopback-names.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const TEST_TOKEN = 'e2e-test-token-3f9c2a';
/** Must match the folder the Chromium wrapper reads (scripts/setup.mjs). */
const WRAPPER_RUN_ROOT = '/tmp/page-fetch-chromium';
const runDirRoot = () => join(WRAPPER_RUN_ROOT, 'wrangler-state');

export interface WorkerOptions {
  /** Vars and secrets for the Worker; every config value is passed explicitly, .dev.vars is not relied on. */
  vars?: Record<string, string>;
  /** Extra Chromium switches, passed through the wrapper, one argument each. */
  chromiumFlags?: string[];
  /** Make every browser launch fail (through the wrapper), as when Browser Rendering refuses one. */
  refuseBrowserLaunch?: boolean;
  /** Another wrangler configuration, relative to the project root (the benchmark's Worker). */
  config?: string;
  /** Run the Worker and its browsers in a network namespace of their own (isolated-network.ts). */
  isolatedNetwork?: IsolatedNetwork;
  /** Host names the Worker's own fetch() resolves to 127.0.0.1 (loopback-names.ts); not with `isolatedNetwork`. */
  loopbackNames?: string[];
}

export interface WorkerHandle {
  origin: string;
  /** Port of wrangler's inspector proxy: workerd's V8 inspector, one target per Worker (GET /json lists them). */
  inspectorPort: number;
  /** POST /api/fetch with the test token. */
  fetchPage(body: unknown, init?: { token?: string | null; headers?: Record<string, string> }): Promise<Response>;
  logs(): string;
  /** Pids of the Chromium browsers this worker launched that are still running. */
  liveBrowserPids(): number[];
  /** How many browsers this worker has launched so far. */
  launchedBrowserCount(): number;
  /** How many browser launches were refused so far (with `refuseBrowserLaunch`). */
  refusedLaunchCount(): number;
  /** Stops wrangler and every browser it launched; resolves once they are gone. */
  stop(): Promise<void>;
}

export const DEFAULT_VARS: Record<string, string> = {
  API_TOKENS: TEST_TOKEN,
  ALLOW_PRIVATE_NETWORK: 'true',
  MAX_WAIT_MS: '60000',
  NAVIGATION_TIMEOUT_MS: '30000',
  MAX_CONTENT_BYTES: '10485760',
  MAX_PDF_BYTES: '26214400',
  MAX_PDF_PAGES: '300',
  MAX_SCREENSHOT_HEIGHT: '32768',
  PROXIES: '',
  BLOCK_MEDIA: 'true',
  BROWSER_IDLE_CLOSE_MS: '60000',
  MAX_CACHE_AGE: '86400',
  MAX_BROWSERS_PER_LOCATION: '4',
  MAX_PAGES_PER_BROWSER: '10',
  QUEUE_TIMEOUT_MS: '5000',
  MAX_SCROLL_STEPS: '10',
};

// Ports for wrangler come from below the kernel's ephemeral range (32768-60999 on Linux), where
// outgoing connections and port-0 listeners never land: wrangler binds its ports again when it
// reloads (once right after start, when its build watcher is ready), and a port from the ephemeral
// range can be taken in between.
const PORT_LOW = 20_000;
const PORT_HIGH = 32_767;

async function canListen(port: number): Promise<boolean> {
  const server = createServer();
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (listening) await new Promise<void>((resolve) => server.close(() => resolve()));
  return listening;
}

async function freePort(): Promise<number> {
  for (;;) {
    const port = PORT_LOW + Math.floor(Math.random() * (PORT_HIGH - PORT_LOW + 1));
    if (await canListen(port)) return port;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, signal);
    } catch {
      // Already gone.
    }
  }
}

async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs: number, intervalMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return condition();
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** A start that failed only because a port was taken between our check and wrangler's bind. */
class PortTaken extends Error {}
const START_ATTEMPTS = 3;

export async function startWorker(options: WorkerOptions = {}): Promise<WorkerHandle> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await launchWorker(options);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === START_ATTEMPTS) throw error;
    }
  }
}

async function launchWorker(options: WorkerOptions): Promise<WorkerHandle> {
  const port = await freePort();
  const inspectorPort = await freePort();
  const vars = { ...DEFAULT_VARS, ...options.vars };
  // wrangler-dist/cli.js directly (not bin/wrangler.js, which only re-spawns it): this process is
  // then the parent of every browser, which is how the wrapper finds this run's folder.
  const args = [
    '--no-warnings',
    '--experimental-vm-modules',
    join(ROOT, 'node_modules/wrangler/wrangler-dist/cli.js'),
    'dev',
    ...(options.config === undefined ? [] : ['--config', options.config]),
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--inspector-port',
    String(inspectorPort),
    '--show-interactive-dev-session=false',
    // Durable Object state of its own, so concurrent workers never share a SQLite file.
    '--persist-to',
    join(runDirRoot(), `state-${port}`),
    ...Object.entries(vars).flatMap(([name, value]) => ['--var', `${name}:${value}`]),
  ];
  const output: string[] = [];
  const isolated = options.isolatedNetwork === undefined ? undefined : await isolatedLaunch(options.isolatedNetwork, port, args);
  const named = options.loopbackNames === undefined ? undefined : loopbackNamesLaunch(options.loopbackNames, args);
  const launch = isolated ?? named;
  const child = spawn(launch?.command ?? process.execPath, launch?.args ?? args, {
    // wrangler runs a configuration's [build] command in its own working directory: the configuration's.
    cwd: options.config === undefined ? ROOT : dirname(options.config),
    detached: true, // own process group, so stop() can end wrangler and workerd together
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
  });
  // Browsers start on the first request, long after this folder exists.
  const runDir = join(WRAPPER_RUN_ROOT, String(child.pid));
  mkdirSync(runDir, { recursive: true });
  if (options.chromiumFlags) writeFileSync(join(runDir, 'flags'), options.chromiumFlags.map((flag) => flag + '\n').join(''));
  if (options.refuseBrowserLaunch) writeFileSync(join(runDir, 'refuse-launch'), '');
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const origin = isolated?.origin ?? `http://127.0.0.1:${port}`;

  const seenPids = new Set<number>();
  // The wrapper adds a line per launch and per refused launch; the counts stay known after stop()
  // removes the directory.
  const counts = new Map<string, number>();
  const lineCount = (file: string) => () => {
    const log = join(runDir, file);
    if (existsSync(log))
      counts.set(
        file,
        readFileSync(log, 'utf8')
          .split('\n')
          .filter((line) => line !== '').length,
      );
    return counts.get(file) ?? 0;
  };
  const launchCount = lineCount('launches');
  // Pids stay known after stop() removes the directory, so a later liveness check still sees them.
  const browserPids = () => {
    if (existsSync(runDir)) {
      for (const name of readdirSync(runDir)) if (name.startsWith('pid-')) seenPids.add(Number(name.slice(4)));
    }
    return [...seenPids];
  };
  const handle: WorkerHandle = {
    origin,
    inspectorPort,
    fetchPage(body, init = {}) {
      const token = init.token === undefined ? TEST_TOKEN : init.token;
      return fetch(`${origin}/api/fetch`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(token === null ? {} : { Authorization: `Bearer ${token}` }),
          ...init.headers,
        },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    },
    logs: () => output.join(''),
    liveBrowserPids: () => browserPids().filter(isAlive),
    launchedBrowserCount: launchCount,
    refusedLaunchCount: lineCount('refused'),
    async stop() {
      if (!exited(child)) {
        killGroup(child.pid!, 'SIGTERM');
        if (!(await waitUntil(() => exited(child), 5000))) killGroup(child.pid!, 'SIGKILL');
        await waitUntil(() => exited(child), 5000);
      }
      for (const pid of browserPids()) killGroup(pid, 'SIGKILL');
      await waitUntil(() => handle.liveBrowserPids().length === 0, 5000);
      rmSync(runDir, { recursive: true, force: true });
      rmSync(join(runDirRoot(), `state-${port}`), { recursive: true, force: true });
      await isolated?.close();
      named?.close();
    },
  };

  const ready = await waitUntil(
    async () => {
      if (exited(child)) return true;
      try {
        // Bounded: a connection closed unanswered (a bridge whose Worker is not up yet) can leave fetch pending.
        await fetch(`${origin}/__ready`, { signal: AbortSignal.timeout(5_000) });
        return true;
      } catch {
        return false;
      }
    },
    90_000,
    250,
  );
  if (!ready || exited(child)) {
    await handle.stop();
    const log = output.join('');
    throw new (log.includes('Address already in use') ? PortTaken : Error)(`wrangler dev did not start:\n${log}`);
  }
  return handle;
}

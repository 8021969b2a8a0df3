// CPU of wrangler dev's two workerd processes, by thread, from /proc (Linux). wrangler starts one
// workerd for the Worker (with `--inspector-addr`: its isolate, the Worker's and its Durable
// Objects', runs on the process's main thread, beside V8's background threads for GC and
// compilation) and one for its own proxy in front of it (the dev server's entry and the inspector
// proxy; not part of the service on Cloudflare). The isolate thread's CPU is what a profile of the
// isolate (worker-profiler.ts) can be checked against.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times (getconf CLK_TCK; 100 on Linux x86). */
const TICKS_PER_SECOND = 100;

export interface WorkerdCpu {
  /** The Worker's workerd: its main thread (the isolate) and the rest of its threads. */
  isolateThread: number;
  otherThreads: number;
  /** wrangler's proxy workerd, all threads. */
  proxy: number;
}

function statFields(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
}

/** utime + stime of a process or thread, ms (fields 14 and 15 of stat). */
function cpuMs(path: string): number {
  const fields = statFields(path);
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

export interface WorkerdProcesses {
  worker: number;
  proxy: number;
}

/** The two workerd children of a wrangler process. */
export function findWorkerd(wranglerPid: number): WorkerdProcesses {
  let worker: number | undefined;
  let proxy: number | undefined;
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      if (Number(statFields(`/proc/${pid}/stat`)[1]) !== wranglerPid) continue;
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (!command[0]?.endsWith('workerd')) continue;
      if (command.some((arg) => arg.startsWith('--inspector-addr'))) worker = pid;
      else proxy = pid;
    } catch {
      // gone meanwhile
    }
  }
  if (worker === undefined || proxy === undefined) throw new Error(`wrangler ${wranglerPid}: workerd processes not found`);
  return { worker, proxy };
}

export function readWorkerdCpu({ worker, proxy }: WorkerdProcesses): WorkerdCpu {
  // The main thread's id is the process's; a process's own stat sums its threads, exited ones included.
  const isolateThread = cpuMs(`/proc/${worker}/task/${worker}/stat`);
  return { isolateThread, otherThreads: cpuMs(`/proc/${worker}/stat`) - isolateThread, proxy: cpuMs(`/proc/${proxy}/stat`) };
}

export function cpuSince(before: WorkerdCpu, after: WorkerdCpu): WorkerdCpu {
  return {
    isolateThread: after.isolateThread - before.isolateThread,
    otherThreads: after.otherThreads - before.otherThreads,
    proxy: after.proxy - before.proxy,
  };
}

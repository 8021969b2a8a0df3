// CPU time and resident memory of a process tree, read from /proc (Linux): what a benchmark charges to
// the Worker runtime and its browsers. A process's own time plus that of its children it has reaped,
// so a renderer that exited during a run still counts (in the browser that reaped it).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { descendants, residentKib } from '../../test/e2e/support/processes.js';

const TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces); [] when it is gone. */
function statFields(pid: number): string[] {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return [];
  }
}

export function parentPid(pid: number): number | undefined {
  const fields = statFields(pid);
  return fields.length === 0 ? undefined : Number(fields[1]);
}

export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** utime + stime + cutime + cstime of one process, in ms (0 when it is gone). */
export function cpuMs(pid: number): number {
  const fields = statFields(pid);
  if (fields.length === 0) return 0;
  // stat fields 14–17, counted from 1 with pid and comm as 1 and 2.
  const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0);
  return (ticks * 1000) / TICKS_PER_S;
}

/** A process and every descendant. */
export function processTree(root: number): number[] {
  return [root, ...descendants([root])];
}

/**
 * CPU time of a changing set of processes over a run, sampled every `everyMs`: each process counts
 * from its first sample (0 for one that starts during the run) to its last, so one that exits still
 * counts up to its last sample (its parent may never reap it into its children's time).
 */
export class CpuMeter {
  readonly #first = new Map<number, number>();
  readonly #last = new Map<number, number>();
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly pids: () => number[],
    everyMs = 200,
  ) {
    for (const pid of pids()) this.#first.set(pid, cpuMs(pid));
    this.#timer = setInterval(() => this.#sample(), everyMs);
  }

  #sample(): void {
    for (const pid of this.pids()) {
      const ms = cpuMs(pid);
      if (ms === 0) continue; // gone since listed
      if (!this.#first.has(pid)) this.#first.set(pid, 0);
      this.#last.set(pid, ms);
    }
  }

  /** Stops sampling; the CPU time of the run, in ms. */
  stop(): number {
    this.#sample();
    clearInterval(this.#timer);
    let total = 0;
    for (const [pid, last] of this.#last) total += last - (this.#first.get(pid) ?? 0);
    return total;
  }
}
export const treeResidentMib = (pids: number[]) => pids.reduce((sum, pid) => sum + residentKib(pid), 0) / 1024;

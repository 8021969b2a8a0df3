// CPU time of process trees, read from /proc (Linux), for benchmarks that charge a request's CPU to
// the processes that spent it. A tree's CPU at an instant is, over its live processes, their own time
// (utime + stime) plus what they reaped of their exited children (cutime + cstime): a renderer that
// starts and exits between two readings is still counted, through the zygote that reaps it. A root
// that exits (a browser closed) is reaped outside the tree, so its last reading is kept. Sampling
// often also counts the processes a tree starts (a process living less than one interval can be
// missed; they are counted as a floor).
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times (getconf CLK_TCK; 100 on Linux x86). */
const TICKS_PER_SECOND = 100;

export interface Stat {
  pid: number;
  parent: number;
  command: string;
  /** utime + stime, ms. */
  own: number;
  /** cutime + cstime, ms. */
  reaped: number;
}

function readStat(pid: number): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    // Fields after the command name: state(3) ppid(4) ... utime(14) stime(15) cutime(16) cstime(17).
    const fields = text.slice(close + 2).split(' ');
    const tick = (i: number) => (Number(fields[i]) * 1000) / TICKS_PER_SECOND;
    return {
      pid,
      parent: Number(fields[1]),
      command: text.slice(text.indexOf('(') + 1, close),
      own: tick(11) + tick(12),
      reaped: tick(13) + tick(14),
    };
  } catch {
    return undefined; // gone meanwhile
  }
}

/** Every process on the machine, by pid. */
function allProcesses(): Map<number, Stat> {
  const stats = new Map<number, Stat>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const stat = readStat(pid);
    if (stat !== undefined) stats.set(pid, stat);
  }
  return stats;
}

/** `roots` and all their descendants among `stats`. */
function tree(stats: Map<number, Stat>, roots: number[]): Stat[] {
  const children = new Map<number, Stat[]>();
  for (const stat of stats.values()) children.set(stat.parent, [...(children.get(stat.parent) ?? []), stat]);
  const found: Stat[] = [];
  const queue = roots.flatMap((pid) => (stats.has(pid) ? [stats.get(pid)!] : []));
  while (queue.length > 0) {
    const stat = queue.shift()!;
    found.push(stat);
    queue.push(...(children.get(stat.pid) ?? []));
  }
  return found;
}

/**
 * One class of processes (a browser's, a Worker's): which roots it has now, and whether it is only
 * the roots' own time (a process whose children belong to another class, like wrangler's).
 */
export interface ProcessClass {
  name: string;
  roots(stats: Map<number, Stat>): number[];
  ownOnly?: boolean;
}

export interface ClassReading {
  /** CPU ms since the meter started. */
  cpuMs: number;
  /** Processes seen in the tree that were not there when the meter started. */
  started: number;
  /** The same by kind: Chromium's --type switch (renderer, utility…; a browser UI renderer as "ui-renderer"), else the command. */
  startedKinds: Map<string, number>;
}

function kindOf(stat: Stat): string {
  try {
    const command = readFileSync(`/proc/${stat.pid}/cmdline`, 'utf8');
    const type = /--type=([\w-]+)/.exec(command)?.[1];
    if (type === undefined) return stat.command;
    if (type === 'renderer' && command.includes('--top-chrome-webui')) return 'ui-renderer';
    const service = /--utility-sub-type=([\w.-]+)/.exec(command)?.[1];
    return service === undefined ? type : `${type} (${service})`;
  } catch {
    return stat.command;
  }
}

/** Samples the classes every `intervalMs` until stopped; then gives each class's CPU and new processes. */
export class CpuMeter {
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly base = new Map<string, number>();
  private readonly seen = new Map<string, Set<number>>();
  /** Last reading of each root, kept once it exits. */
  private readonly lastOfRoot = new Map<string, Map<number, number>>();
  private readonly startedPids = new Map<string, Map<number, string>>();

  constructor(
    private readonly classes: ProcessClass[],
    intervalMs = 100,
  ) {
    const stats = allProcesses();
    for (const cls of classes) {
      this.seen.set(cls.name, new Set());
      this.startedPids.set(cls.name, new Map());
      this.lastOfRoot.set(cls.name, new Map());
    }
    for (const cls of classes) this.base.set(cls.name, this.total(cls, stats, true));
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  private total(cls: ProcessClass, stats: Map<number, Stat>, initial: boolean): number {
    const roots = cls.roots(stats);
    const members = cls.ownOnly ? roots.flatMap((pid) => (stats.has(pid) ? [stats.get(pid)!] : [])) : tree(stats, roots);
    const seen = this.seen.get(cls.name)!;
    for (const stat of members) {
      if (!initial && !seen.has(stat.pid)) this.startedPids.get(cls.name)!.set(stat.pid, kindOf(stat));
      seen.add(stat.pid);
    }
    const lastOfRoot = this.lastOfRoot.get(cls.name)!;
    let live = 0;
    for (const stat of members) {
      const reading = stat.own + (cls.ownOnly ? 0 : stat.reaped);
      live += reading;
      if (roots.includes(stat.pid)) lastOfRoot.set(stat.pid, reading);
    }
    let exitedRoots = 0;
    for (const [pid, reading] of lastOfRoot) if (!stats.has(pid)) exitedRoots += reading;
    return live + exitedRoots;
  }

  private sample(): Map<string, number> {
    const stats = allProcesses();
    return new Map(this.classes.map((cls) => [cls.name, this.total(cls, stats, false)]));
  }

  stop(): Map<string, ClassReading> {
    clearInterval(this.timer);
    const totals = this.sample();
    return new Map(
      this.classes.map((cls) => [
        cls.name,
        {
          cpuMs: totals.get(cls.name)! - this.base.get(cls.name)!,
          started: this.startedPids.get(cls.name)!.size,
          startedKinds: countKinds([...this.startedPids.get(cls.name)!.values()]),
        },
      ]),
    );
  }
}

function countKinds(kinds: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of kinds) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

/** CPU ms this Node process has spent (all its threads), for the benchmark's own share. */
export function ownCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

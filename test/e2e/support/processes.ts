// The processes of a browser, read from /proc (Linux): the tests use it to crash a page's renderer
// as the kernel's out-of-memory killer would (it picks the largest process), without waiting seconds
// for a real out-of-memory crash.
import { readdirSync, readFileSync } from 'node:fs';

function parentOf(pid: number): number | undefined {
  try {
    // Field 4 of /proc/<pid>/stat, after the command name in parentheses (which may hold spaces).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** Pids of every descendant of `roots`. */
export function descendants(roots: number[]): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const parent = parentOf(pid);
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const found: number[] = [];
  const queue = [...roots];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** Resident memory of a process in KiB (0 when it is gone). */
export function residentKib(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Renderer processes of the given browsers that render web pages (not the browser's own UI). */
export function pageRendererPids(browserPids: number[]): number[] {
  return descendants(browserPids).filter((pid) => {
    const command = commandLine(pid);
    return command.includes('--type=renderer') && !command.includes('--top-chrome-webui');
  });
}

/**
 * Page targets open in each browser, from the browser itself: its DevTools endpoint's target list
 * (the port is in DevToolsActivePort in its profile). Includes the browser's first tab.
 */
export async function pagesPerBrowser(browserPids: number[]): Promise<number[]> {
  const counts: number[] = [];
  for (const pid of browserPids) {
    const profile = /--user-data-dir=(\S+)/.exec(commandLine(pid))?.[1];
    if (!profile) continue;
    try {
      const port = readFileSync(`${profile}/DevToolsActivePort`, 'utf8').split('\n')[0];
      const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { type: string }[];
      counts.push(targets.filter((target) => target.type === 'page').length);
    } catch {
      // A browser that is starting or closing has no endpoint to ask yet.
    }
  }
  return counts;
}

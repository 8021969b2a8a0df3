// Timers of one request that are all cleared together, so no wait outlives the request: once
// cleared, a wait asked for by work the request left behind (a phase that lost a race) never ends.

export class Timers {
  private readonly handles: ReturnType<typeof setTimeout>[] = [];
  private cleared = false;

  /** Resolves with `value` after `ms` (at once for a negative delay); never once cleared. */
  after<T>(ms: number, value: T): Promise<T> {
    if (this.cleared) return new Promise<T>(() => undefined);
    return new Promise((resolve) => this.handles.push(setTimeout(() => resolve(value), Math.max(0, ms))));
  }

  /** `work`'s value, or 'timeout' when `deadline` (ms since the epoch) passes first. */
  within<T>(deadline: number, work: Promise<T>): Promise<T | 'timeout'> {
    return Promise.race([work, this.after(deadline - Date.now(), 'timeout' as const)]);
  }

  clear(): void {
    this.cleared = true;
    for (const handle of this.handles) clearTimeout(handle);
  }
}

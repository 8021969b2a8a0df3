// Timers of one request that are all cleared together, so no wait outlives the request.

export class Timers {
  private readonly handles: ReturnType<typeof setTimeout>[] = [];

  /** Resolves with `value` after `ms` (at once for a negative delay). */
  after<T>(ms: number, value: T): Promise<T> {
    return new Promise((resolve) => this.handles.push(setTimeout(() => resolve(value), Math.max(0, ms))));
  }

  clear(): void {
    for (const handle of this.handles) clearTimeout(handle);
  }
}

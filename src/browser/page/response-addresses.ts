// The address space (CDP IPAddressSpace: Public, Local, Loopback, ...) the browser reports for each
// response it receives, from Network.responseReceivedExtraInfo, for the request filter to judge a
// response by before the page gets it (a name that resolves privately passes every URL check). The
// filter pauses responses in one session while these events come in the sessions puppeteer keeps
// (the page's, an out-of-process frame's), in either order, so a response may wait for its report.
// Reports queue per request: each redirect hop is reported, then paused, in turn.

/** What the collector listens on: a CDP session's event emitter (puppeteer types its handlers loosely). */
interface EventSource {
  on(event: string, handler: (event: never) => void): unknown;
  off(event: string, handler: (event: never) => void): unknown;
}

interface ExtraInfoEvent {
  requestId: string;
  resourceIPAddressSpace?: string;
}

/** A report the browser made: the space, or undefined when it said nothing about one. */
type Report = { space: string | undefined };

export interface ResponseAddresses {
  /** Listens on one more CDP session (the same session twice is one). */
  watch(session: object | undefined): void;
  /**
   * The next report for network request `id` not yet taken: the space the browser reported for it, or
   * undefined when it named none or `timeoutMs` passed without a report (the guard refuses both).
   */
  next(id: string, timeoutMs: number): Promise<string | undefined>;
  /** Stops listening and answers every response still waiting undefined (its page is closing). */
  dispose(): void;
}

export function collectResponseAddresses(): ResponseAddresses {
  const reports = new Map<string, Report[]>();
  const waiting = new Map<string, ((report: Report) => void)[]>();
  const sources = new Set<EventSource>();
  const onExtraInfo = (event: ExtraInfoEvent) => {
    const report = { space: event.resourceIPAddressSpace };
    const waiter = waiting.get(event.requestId)?.shift();
    if (waiter !== undefined) return waiter(report);
    reports.set(event.requestId, [...(reports.get(event.requestId) ?? []), report]);
  };
  const handler = onExtraInfo as (event: never) => void;
  return {
    watch(session) {
      const source = session as EventSource | undefined;
      if (source === undefined || sources.has(source)) return;
      sources.add(source);
      source.on('Network.responseReceivedExtraInfo', handler);
    },
    next(id, timeoutMs) {
      const queued = reports.get(id)?.shift();
      if (queued !== undefined) return Promise.resolve(queued.space);
      return new Promise((resolve) => {
        const take = (report: Report) => {
          clearTimeout(timer);
          resolve(report.space);
        };
        const timer = setTimeout(() => {
          const list = waiting.get(id) ?? [];
          list.splice(list.indexOf(take), 1);
          resolve(undefined);
        }, timeoutMs);
        waiting.set(id, [...(waiting.get(id) ?? []), take]);
      });
    },
    dispose() {
      for (const source of sources) source.off('Network.responseReceivedExtraInfo', handler);
      sources.clear();
      reports.clear();
      const takers = [...waiting.values()].flat();
      waiting.clear();
      for (const take of takers) take({ space: undefined });
    },
  };
}

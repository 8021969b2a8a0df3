// V8's sampling CPU profiler of the Worker under wrangler dev, driven over the DevTools protocol.
// wrangler's inspector proxy (`--inspector-port`, test/e2e/support/worker.ts) relays one WebSocket
// to workerd's inspector for the Worker's isolate, which runs the Worker and its Durable Objects
// alike. workerd answers the Profiler commands itself (Profiler.enable makes a v8::CpuProfiler,
// start and stop run it) and V8 records a sample only while the isolate's lock is held, so a
// profile counts the isolate's own work, not the time it waits. The proxy accepts a client that
// names an allowed Origin; Node's WebSocket (node --experimental-websocket on Node 20) takes it as
// a header.

export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

export interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

/** Profiler.Profile: nodes of the call tree, one node id per sample, µs between samples. */
export interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface WorkerProfiler {
  start(intervalUs: number): Promise<void>;
  stop(): Promise<Profile>;
  close(): void;
}

export async function connectProfiler(inspectorPort: number): Promise<WorkerProfiler> {
  if (typeof WebSocket === 'undefined') throw new Error('no WebSocket in this Node: run with --experimental-websocket');
  const init = { headers: { Origin: 'http://127.0.0.1' } } as unknown as string[];
  const socket = new WebSocket(`ws://127.0.0.1:${inspectorPort}/ws`, init);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error('the inspector refused the connection')), { once: true });
  });
  let lastId = 0;
  const pending = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
    const waiter = message.id === undefined ? undefined : pending.get(message.id);
    if (waiter === undefined) return; // events and the proxy's own traffic
    pending.delete(message.id!);
    if (message.error !== undefined) waiter.reject(new Error(message.error.message));
    else waiter.resolve(message.result);
  });
  socket.addEventListener('close', () => {
    for (const waiter of pending.values()) waiter.reject(new Error('the inspector closed the connection'));
    pending.clear();
  });
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++lastId;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  await send('Profiler.enable');
  return {
    async start(intervalUs) {
      await send('Profiler.setSamplingInterval', { interval: intervalUs });
      await send('Profiler.start');
    },
    async stop() {
      const result = (await send('Profiler.stop')) as { profile?: Profile } | undefined;
      if (result?.profile === undefined) throw new Error('Profiler.stop returned no profile');
      return result.profile;
    },
    close: () => socket.close(),
  };
}

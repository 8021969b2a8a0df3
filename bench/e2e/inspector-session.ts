// One DevTools protocol session with the Worker's isolate under wrangler dev. wrangler's inspector
// proxy (`--inspector-port`, test/e2e/support/worker.ts) relays one WebSocket to workerd's inspector
// for the Worker's isolate, which runs the Worker and its Durable Objects alike. The proxy accepts a
// client that names an allowed Origin; Node's WebSocket (node --experimental-websocket on Node 20)
// takes it as a header.

export interface InspectorSession {
  send(method: string, params?: object): Promise<unknown>;
  close(): void;
}

export async function openInspector(inspectorPort: number): Promise<InspectorSession> {
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
  return {
    send: (method, params = {}) =>
      new Promise<unknown>((resolve, reject) => {
        const id = ++lastId;
        pending.set(id, { resolve, reject });
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
}

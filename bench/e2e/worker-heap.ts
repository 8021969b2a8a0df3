// The V8 heap of the Worker's isolate under wrangler dev (the Worker and its Durable Objects run in
// that one isolate), read over the DevTools protocol (inspector-session.ts): what a long crawl keeps
// in JavaScript, apart from workerd's resident memory, which holds the whole runtime.
import { openInspector } from './inspector-session.js';

export interface WorkerHeap {
  /** MiB of the isolate's heap in use now; after a full garbage collection when `collected`. */
  usedMib(collected?: boolean): Promise<number>;
  close(): void;
}

export async function connectHeap(inspectorPort: number): Promise<WorkerHeap> {
  const { send, close } = await openInspector(inspectorPort);
  return {
    async usedMib(collected = false) {
      if (collected) await send('HeapProfiler.collectGarbage');
      const { usedSize } = (await send('Runtime.getHeapUsage')) as { usedSize: number };
      return usedSize / 1024 / 1024;
    },
    close,
  };
}

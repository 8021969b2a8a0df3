// V8's sampling CPU profiler of the Worker under wrangler dev, driven over the DevTools protocol
// (inspector-session.ts). workerd answers the Profiler commands itself (Profiler.enable makes a
// v8::CpuProfiler, start and stop run it) and V8 records a sample only while the isolate's lock is
// held, so a profile counts the isolate's own work, not the time it waits.
import { openInspector } from './inspector-session.js';

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
  const { send, close } = await openInspector(inspectorPort);
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
    close,
  };
}

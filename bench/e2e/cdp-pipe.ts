// A Chromium driven over raw CDP through --remote-debugging-pipe (fds 3 and 4, messages ended by
// NUL): no puppeteer, no WebSocket, nothing between the benchmark and the browser but the pipe. It
// counts the messages each way, so a driver's CDP traffic per request is known.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

type Params = Record<string, unknown>;
type Listener = (params: Params, sessionId: string | undefined) => void;

export interface PipeBrowser {
  pid: number;
  send<T = Params>(method: string, params?: Params, sessionId?: string): Promise<T>;
  on(method: string, listener: Listener): void;
  off(method: string, listener: Listener): void;
  /** Messages sent and received so far (commands, their replies and events). */
  messages(): { sent: number; received: number };
  close(): Promise<void>;
}

/** Launches `executable` with `args` (any --remote-debugging-port or --user-data-dir among them replaced). */
export function launchPipeBrowser(executable: string, args: string[]): PipeBrowser {
  const profile = mkdtempSync(join(tmpdir(), 'page-fetch-floor-'));
  const own = args.filter((arg) => !/^--(remote-debugging-port|remote-debugging-pipe|user-data-dir)\b/.test(arg));
  const child: ChildProcess = spawn(executable, [...own, '--remote-debugging-pipe', `--user-data-dir=${profile}`], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'],
  });
  const input = child.stdio[3] as Writable;
  const output = child.stdio[4] as Readable;
  const pending = new Map<number, { resolve: (value: never) => void; reject: (error: Error) => void }>();
  const listeners = new Map<string, Set<Listener>>();
  let nextId = 1;
  let sent = 0;
  let received = 0;
  let buffered = '';
  output.on('data', (chunk: Buffer) => {
    const parts = (buffered + chunk.toString('utf8')).split('\0');
    buffered = parts.pop()!;
    for (const part of parts) {
      received++;
      const message = JSON.parse(part) as {
        id?: number;
        method?: string;
        params?: Params;
        result?: never;
        error?: { message: string };
        sessionId?: string;
      };
      if (message.id !== undefined) {
        const call = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) call?.reject(new Error(message.error.message));
        else call?.resolve(message.result!);
      } else if (message.method !== undefined) {
        for (const listener of listeners.get(message.method) ?? []) listener(message.params ?? {}, message.sessionId);
      }
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    pid: child.pid!,
    send<T>(method: string, params: Params = {}, sessionId?: string) {
      const id = nextId++;
      sent++;
      input.write(JSON.stringify({ id, method, params, ...(sessionId === undefined ? {} : { sessionId }) }) + '\0');
      return new Promise<T>((resolve, reject) => pending.set(id, { resolve: resolve as (value: never) => void, reject }));
    },
    on(method, listener) {
      listeners.set(method, (listeners.get(method) ?? new Set()).add(listener));
    },
    off(method, listener) {
      listeners.get(method)?.delete(listener);
    },
    messages: () => ({ sent, received }),
    async close() {
      input.write(JSON.stringify({ id: nextId++, method: 'Browser.close', params: {} }) + '\0');
      const timeout = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timeout);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

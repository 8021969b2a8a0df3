// Shared lifecycle for e2e files: one Worker and one fixture server per file, logs shown only when a
// test fails, and checks that the file leaves no browser behind and no token in the logs.
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';
import { startWorker, TEST_TOKEN, type WorkerHandle, type WorkerOptions } from './worker.js';

export interface E2eContext {
  worker: WorkerHandle;
  fixtures: FixtureServer;
}

/**
 * Registers beforeAll/afterAll for a file; the returned object is filled in before the first test.
 * `options` may be computed once the fixture server runs (e.g. proxies that point at it).
 */
export function useWorker(options: WorkerOptions | ((fixtures: FixtureServer) => Promise<WorkerOptions>) = {}): E2eContext {
  const context = {} as E2eContext;
  beforeAll(async () => {
    context.fixtures = await startFixtureServer();
    context.worker = await startWorker(typeof options === 'function' ? await options(context.fixtures) : options);
  });
  afterEach((test) => {
    if (test.task.result?.state === 'fail') console.error(`--- worker logs ---\n${context.worker?.logs() ?? '(not started)'}`);
  });
  afterAll(async () => {
    await context.worker?.stop();
    await context.fixtures?.close();
    expect(context.worker?.liveBrowserPids() ?? []).toEqual([]);
    // Secrets never reach a log line.
    expect(context.worker?.logs() ?? '').not.toContain(TEST_TOKEN);
  });
  return context;
}

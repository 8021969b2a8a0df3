// Observing promises under fake timers: which state a promise settled in and at what fake time, and
// running pending reactions or moving the clock without asserting inside callbacks.
import { afterEach, beforeEach, vi } from 'vitest';

/** Runs every queued promise reaction, without moving the fake clock. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

export type Settled<T> =
  | { state: 'pending' }
  | { state: 'resolved'; value: T; at: number }
  | { state: 'rejected'; error: unknown; at: number };

/** Records how and when (Date.now()) `promise` settles, for assertions on the clock. */
export function track<T>(promise: Promise<T>): { readonly current: Settled<T> } {
  const record: { current: Settled<T> } = { current: { state: 'pending' } };
  promise.then(
    (value) => (record.current = { state: 'resolved', value, at: Date.now() }),
    (error: unknown) => (record.current = { state: 'rejected', error, at: Date.now() }),
  );
  return record;
}

/** Moves the fake clock to `ms` (absolute, from a test that set the time to 0), running timers and reactions on the way. */
export async function at(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms - Date.now());
}

/** Fake timers from t=0 for each test of the calling file. */
export function useFakeClock(): void {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

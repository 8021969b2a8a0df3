// The readiness signals a request can wait for (docs/api.md "Waiting"): vocabulary shared by the API
// schema, which accepts them, and the browser side, which waits for them.
export const WAIT_EVENTS = ['DOMContentLoaded', 'load', 'networkAlmostIdle', 'networkIdle'] as const;
export type WaitEvent = (typeof WAIT_EVENTS)[number];

/** `event` when the wait event fired, `timeout` when the budget ran out first (not an error). */
export type WaitResult = 'event' | 'timeout';

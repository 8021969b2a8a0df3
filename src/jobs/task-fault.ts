// A page task made to fail, for local development and tests only: the dead-letter path (a task
// whose handler keeps throwing, as when its job cannot be reached) cannot otherwise be reached on
// purpose in a running Worker. Honoured only while ALLOW_PRIVATE_NETWORK is "true", which no
// deployment sets.

/** The vars it reads: the text that marks a task's URL, and the local-only switch. */
export interface TaskFaultEnv {
  TEST_PAGE_TASK_FAULT?: string;
  ALLOW_PRIVATE_NETWORK?: string;
}

/** Throws for a task whose URL holds TEST_PAGE_TASK_FAULT, before anything of it runs. */
export function throwIfTaskFault(env: TaskFaultEnv, url: string): void {
  const mark = env.TEST_PAGE_TASK_FAULT;
  if (mark && env.ALLOW_PRIVATE_NETWORK === 'true' && url.includes(mark)) throw new Error('page task fault (TEST_PAGE_TASK_FAULT)');
}

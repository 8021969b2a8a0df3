import { describe, expect, it } from 'vitest';
import { throwIfTaskFault } from '../../../src/jobs/task-fault.js';

describe('throwIfTaskFault', () => {
  const url = 'http://127.0.0.1:8080/page?fail-task';

  it('throws for a URL holding the mark, only while private networks are allowed (local use)', () => {
    expect(() => throwIfTaskFault({ TEST_PAGE_TASK_FAULT: 'fail-task', ALLOW_PRIVATE_NETWORK: 'true' }, url)).toThrow(
      /TEST_PAGE_TASK_FAULT/,
    );
    expect(() => throwIfTaskFault({ TEST_PAGE_TASK_FAULT: 'fail-task', ALLOW_PRIVATE_NETWORK: 'false' }, url)).not.toThrow();
    expect(() => throwIfTaskFault({ TEST_PAGE_TASK_FAULT: 'fail-task' }, url)).not.toThrow();
  });

  it('lets every other task run', () => {
    expect(() => throwIfTaskFault({ TEST_PAGE_TASK_FAULT: 'other', ALLOW_PRIVATE_NETWORK: 'true' }, url)).not.toThrow();
    expect(() => throwIfTaskFault({ TEST_PAGE_TASK_FAULT: '', ALLOW_PRIVATE_NETWORK: 'true' }, url)).not.toThrow();
    expect(() => throwIfTaskFault({ ALLOW_PRIVATE_NETWORK: 'true' }, url)).not.toThrow();
  });
});

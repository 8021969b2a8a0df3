import { describe, expect, it } from 'vitest';
import { PhaseTimer } from '../../../src/shared/timings.js';

describe('PhaseTimer', () => {
  it('renders the phases that ran in their natural order as Server-Timing', async () => {
    const timer = new PhaseTimer();
    timer.record('convert', 1.25);
    await timer.time('acquire', async () => new Promise((resolve) => setTimeout(resolve, 5)));
    expect(timer.header()).toMatch(/^acquire;dur=\d+\.\d, convert;dur=1\.3$/);
  });

  it('records a phase that throws', async () => {
    const timer = new PhaseTimer();
    await expect(timer.time('navigate', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(timer.header()).toMatch(/^navigate;dur=/);
  });
});

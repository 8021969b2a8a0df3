// Phase timings of one fetch, rendered as a Server-Timing header (W3C Server Timing). Workers' clocks
// advance only across I/O, so a CPU-only phase (convert) can read 0 ms when run in workerd.

export const PHASES = ['cache', 'queue', 'acquire', 'navigate', 'wait', 'serialize', 'screenshot', 'convert'] as const;
export type Phase = (typeof PHASES)[number];

export class PhaseTimer {
  readonly durations = new Map<Phase, number>();

  /** Runs `work`, recording its wall time under `phase` (also when it throws). */
  async time<T>(phase: Phase, work: () => Promise<T> | T): Promise<T> {
    const start = performance.now();
    try {
      return await work();
    } finally {
      this.durations.set(phase, (this.durations.get(phase) ?? 0) + (performance.now() - start));
    }
  }

  record(phase: Phase, ms: number): void {
    this.durations.set(phase, ms);
  }

  /** `acquire;dur=12.3, navigate;dur=…` for the phases that ran, in their natural order. */
  header(): string {
    return PHASES.filter((phase) => this.durations.has(phase))
      .map((phase) => `${phase};dur=${this.durations.get(phase)!.toFixed(1)}`)
      .join(', ');
  }
}

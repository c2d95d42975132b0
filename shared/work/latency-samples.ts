import { percentile } from './work-counters.js';

const MAX_SAMPLES = 100_000;

/**
 * Enqueue-to-start waits (ms) as a queue records them. Keeps the most recent samples only, so a
 * long-running process does not grow without bound.
 */
export class LatencySamples {
  private readonly samples: number[] = [];

  record(ms: number): void {
    if (this.samples.length >= MAX_SAMPLES) this.samples.splice(0, MAX_SAMPLES / 2);
    this.samples.push(ms);
  }

  /** Nearest-rank percentile in ms (p in 0..100). */
  percentile(p: number): number | undefined {
    return percentile(this.samples, p);
  }

  /** The samples recorded since the last take; forgets them. */
  take(): number[] {
    return this.samples.splice(0);
  }
}

import type { Clock } from '../../shared/ports/clock.js';

/** Real time plus an offset the test moves forward: for transports that run on real time. */
export class OffsetClock implements Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  skip(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

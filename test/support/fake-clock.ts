import type { Clock } from '../../shared/ports/clock.js';

/** A clock that only moves when told to. */
export class FakeClock implements Clock {
  private current: number;

  constructor(start: Date | string = '2026-01-01T00:00:00Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advanceSeconds(seconds: number): void {
    this.current += seconds * 1000;
  }

  /** Moves to `time` if it lies ahead; never goes back. */
  advanceTo(time: number): void {
    this.current = Math.max(this.current, time);
  }
}

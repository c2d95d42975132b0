import type { Clock } from '../../shared/ports/clock.js';
import type { Timers } from '../../shared/work/timers.js';

interface Scheduled {
  dueAt: number;
  seq: number;
  callback: () => void;
}

/** A clock and timers that move only when told to; timers fire in due order. */
export class ManualTime implements Clock, Timers {
  private current: number;
  private seq = 0;
  private readonly scheduled = new Set<Scheduled>();

  constructor(start = Date.parse('2026-01-01T00:00:00Z')) {
    this.current = start;
  }

  now(): Date {
    return new Date(this.current);
  }

  schedule(ms: number, callback: () => void): () => void {
    const entry = { dueAt: this.current + Math.max(0, ms), seq: this.seq++, callback };
    this.scheduled.add(entry);
    return () => this.scheduled.delete(entry);
  }

  /** Due time of the earliest timer, if any. */
  nextDue(): number | undefined {
    return this.next()?.dueAt;
  }

  /**
   * Moves time forward by `ms`, firing each due timer at its own time and awaiting `settle`
   * after each, so timers scheduled by the work they trigger fire too when due in the window.
   */
  async advance(ms: number, settle: () => Promise<void>): Promise<void> {
    const target = this.current + ms;
    for (let entry = this.next(); entry && entry.dueAt <= target; entry = this.next()) {
      this.scheduled.delete(entry);
      this.current = Math.max(this.current, entry.dueAt);
      entry.callback();
      await settle();
    }
    this.current = target;
  }

  private next(): Scheduled | undefined {
    let best: Scheduled | undefined;
    for (const s of this.scheduled) {
      if (!best || s.dueAt < best.dueAt || (s.dueAt === best.dueAt && s.seq < best.seq)) best = s;
    }
    return best;
  }
}

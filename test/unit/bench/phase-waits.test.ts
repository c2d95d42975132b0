import { afterEach, describe, expect, it, vi } from 'vitest';
import { PhaseWaits } from '../../../bench/phase-waits.js';

/** A queue's bounded window of waits, fed by the test. */
class FakeSource {
  private samples: number[] = [];
  record(...waits: number[]) {
    this.samples.push(...waits);
  }
  takeLatencySamples(): number[] {
    return this.samples.splice(0);
  }
}

describe('PhaseWaits', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('drops what came before it, and hands each phase only its own waits', () => {
    const source = new FakeSource();
    source.record(999);
    const waits = new PhaseWaits(source);
    source.record(1, 2);
    expect(waits.endPhase()).toEqual([1, 2]);
    source.record(5000);
    expect(waits.endPhase()).toEqual([5000]);
    expect(waits.endPhase()).toEqual([]);
    waits.stop();
  });

  it('takes the waits from the source every second, so a bounded source cannot drop them', () => {
    vi.useFakeTimers();
    const source = new FakeSource();
    const waits = new PhaseWaits(source);
    source.record(1);
    vi.advanceTimersByTime(1000);
    expect(source.takeLatencySamples()).toEqual([]);
    source.record(2);
    expect(waits.endPhase()).toEqual([1, 2]);
    waits.stop();
  });
});

/**
 * The queue's enqueue → start waits, collected by benchmark phase. The queue keeps a bounded
 * window of them (the most recent 100,000), which a 1,000-cluster run outgrows, so they are taken
 * from it every second. The figure the benchmark reports is the wait after a change: its create
 * and delete phases. A resync enqueues every object at once, so its waits say how long that
 * drain took, not how long a change waits, and are kept apart.
 */
export interface WaitSource {
  takeLatencySamples(): number[];
}

export class PhaseWaits {
  private current: number[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly source: WaitSource) {
    source.takeLatencySamples();
    this.timer = setInterval(() => this.collect(), 1000);
    this.timer.unref();
  }

  /** The waits since the previous phase ended; the next phase starts now. */
  endPhase(): number[] {
    this.collect();
    const waits = this.current;
    this.current = [];
    return waits;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private collect(): void {
    for (const wait of this.source.takeLatencySamples()) this.current.push(wait);
  }
}

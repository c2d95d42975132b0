/**
 * What `npm run bench -- --faults` injects, and how often (issue 16, "Bad input and faults").
 * A seeded generator makes a run's fault decisions repeatable for a given order of calls (the
 * order itself depends on scheduling, so two runs inject similar, not identical, faults).
 */
export interface FaultPlan {
  /** Chance that a reconciler's store call fails: throttled, refused by a condition, or crashing after it wrote. */
  storeCallFault: number;
  /** Chance that a routed reconcile request is lost (the resync brings it back). */
  lostMessage: number;
  /** Chance that a routed reconcile request is delivered twice. */
  duplicatedMessage: number;
  seed: number;
}

export const DEFAULT_FAULT_PLAN: FaultPlan = { storeCallFault: 0.01, lostMessage: 0.02, duplicatedMessage: 0.02, seed: 16 };

/** Faults injected so far, by kind. */
export interface FaultCounts {
  throttled: number;
  conditionFailed: number;
  crashedAfterWrite: number;
  crashedBeforeCall: number;
  lostMessages: number;
  duplicatedMessages: number;
}

export function emptyFaultCounts(): FaultCounts {
  return { throttled: 0, conditionFailed: 0, crashedAfterWrite: 0, crashedBeforeCall: 0, lostMessages: 0, duplicatedMessages: 0 };
}

/** mulberry32: a small seeded generator of floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The injector both fault points share: one generator, one set of counters. */
export class FaultInjector {
  readonly counts = emptyFaultCounts();
  private readonly random: () => number;

  constructor(readonly plan: FaultPlan) {
    this.random = seededRandom(plan.seed);
  }

  /** Whether an event of probability `p` happens now. */
  roll(p: number): boolean {
    return p > 0 && this.random() < p;
  }

  /** Picks one of `choices` uniformly. */
  pick<T>(choices: readonly [T, ...T[]]): T {
    return choices[Math.min(choices.length - 1, Math.floor(this.random() * choices.length))] ?? choices[0];
  }

  /**
   * Routed requests after loss and duplication: each is dropped with `lostMessage`, else sent
   * twice with `duplicatedMessage`.
   */
  deliver<T>(requests: readonly T[]): T[] {
    const out: T[] = [];
    for (const request of requests) {
      if (this.roll(this.plan.lostMessage)) {
        this.counts.lostMessages++;
        continue;
      }
      out.push(request);
      if (this.roll(this.plan.duplicatedMessage)) {
        this.counts.duplicatedMessages++;
        out.push(request);
      }
    }
    return out;
  }
}

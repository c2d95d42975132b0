import type { BenchOptions } from '../args.js';
import type { BenchReport } from '../report.js';
import { type BenchLog, runBenchmark } from '../run-benchmark.js';
import { type FaultCounts, FaultInjector, type FaultPlan } from './fault-plan.js';

/** What `--faults` adds to the report: what was injected and what it cost, against a clean run. */
export interface FaultReport {
  plan: FaultPlan;
  injected: FaultCounts;
  clean: { readySeconds: number; deleteSeconds: number; reconciles: number; completed: boolean };
  /** (ready + delete) under faults ÷ the same without. */
  slowdown: number;
  /** Objects per kind created beyond the clean run's (a crash that duplicated an object shows here). */
  duplicatedObjects: number;
  /** The same, per kind (only kinds with a surplus): where to look when it is not 0. */
  duplicatedByKind: Record<string, number>;
  /** Clusters not ready or objects left behind at the end (an update lost for good shows here). */
  lostUpdates: number;
}

/**
 * `npm run bench -- --faults`: the same workload twice, first clean, then with faults injected
 * into the reconcilers' store calls and the routed messages. Returns the faulty run's report with
 * the comparison attached.
 */
export async function runBenchmarkWithFaults(options: BenchOptions, plan: FaultPlan, log: BenchLog): Promise<BenchReport & { faults: FaultReport }> {
  log('clean run first, for comparison');
  const clean = await runBenchmark(options, log);
  const injector = new FaultInjector(plan);
  log(`run with faults: store calls ${plan.storeCallFault}, lost messages ${plan.lostMessage}, duplicated ${plan.duplicatedMessage} (seed ${plan.seed})`);
  const faulty = await runBenchmark(options, log, injector);
  const duplicatedByKind = Object.fromEntries(
    Object.entries(faulty.objectsByKind)
      .map(([kind, count]): [string, number] => [kind, count - (clean.objectsByKind[kind] ?? 0)])
      .filter(([, surplus]) => surplus > 0),
  );
  const duplicatedObjects = Object.values(duplicatedByKind).reduce((sum, surplus) => sum + surplus, 0);
  const total = (r: BenchReport) => r.readySeconds + r.deleteSeconds;
  return {
    ...faulty,
    faults: {
      plan,
      injected: { ...injector.counts },
      clean: { readySeconds: clean.readySeconds, deleteSeconds: clean.deleteSeconds, reconciles: clean.reconciles, completed: clean.completed },
      slowdown: total(clean) === 0 ? 0 : total(faulty) / total(clean),
      duplicatedObjects,
      duplicatedByKind,
      lostUpdates: faulty.clusters - faulty.readyClusters + faulty.objectsLeft,
    },
  };
}

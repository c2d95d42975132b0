import { describe, expect, it } from 'vitest';
import { DEFAULT_BENCH_OPTIONS, parseBenchArgs } from '../../../bench/args.js';
import { DEFAULT_FAULT_PLAN } from '../../../bench/faults/fault-plan.js';
import { DEFAULT_RESYNC_MINUTES } from '../../../lib/stacks/props/resync-default.js';

describe('npm run bench arguments', () => {
  it('prices the fleet at rest at the deployed resync period unless told otherwise', () => {
    expect(parseBenchArgs([])).toEqual(DEFAULT_BENCH_OPTIONS);
    expect(DEFAULT_BENCH_OPTIONS.resyncSeconds).toBe(DEFAULT_RESYNC_MINUTES * 60);
  });

  it.each<[string, string[], unknown]>([
    ['--faults: the default plan', ['--faults'], DEFAULT_FAULT_PLAN],
    ['--faults with a seed', ['--faults', '--faults-seed', '3'], { ...DEFAULT_FAULT_PLAN, seed: 3 }],
    ['no --faults: none', ['--clusters', '2'], undefined],
  ])('%s', (_name, argv, faults) => {
    const options = parseBenchArgs(argv);
    if (options === 'help') throw new Error('unexpected help');
    expect(options.faults).toEqual(faults);
  });

  it.each<[string, string[], Partial<typeof DEFAULT_BENCH_OPTIONS>]>([
    ['--workers: reconcile worker threads', ['--workers', '2'], { reconcileWorkers: 2, workerReplicas: DEFAULT_BENCH_OPTIONS.workerReplicas }],
    ['--worker-machines: worker Machines per cluster', ['--worker-machines', '1'], { reconcileWorkers: 0, workerReplicas: 1 }],
    ['both', ['--workers', '4', '--worker-machines', '0'], { reconcileWorkers: 4, workerReplicas: 0 }],
    ['--simulate-aws: memory store, 5 ms a call', ['--simulate-aws'], { store: 'memory', simulateAws: { storeLatencyMs: 5 } }],
    ['the embedded default store (ADR 0131) unless told otherwise', [], { store: 'file' }],
    ['--store dynamodb: the DynamoDB adapter on dynalite', ['--store', 'dynamodb'], { store: 'dynamodb' }],
    ['--simulate-aws with a latency and a concurrency', ['--simulate-aws', '--store-latency-ms', '8', '--concurrency', '100'], { simulateAws: { storeLatencyMs: 8 }, reconcileConcurrency: 100 }],
  ])('%s', (_name, argv, expected) => {
    expect(parseBenchArgs(argv)).toMatchObject(expected);
  });

  it.each<[string, string[], RegExp]>([
    ['an unknown store', ['--store', 'sqlite'], /--store must be file, memory, dynamodb, not sqlite/],
    ['an endpoint for the file store', ['--store', 'file', '--endpoint', 'http://localhost:8000'], /--endpoint needs --store dynamodb/],
    ['a negative worker count', ['--workers=-1'], /--workers must be an integer ≥ 0, not -1/],
    ['a store latency without --simulate-aws', ['--store-latency-ms', '5'], /--store-latency-ms needs --simulate-aws/],
    ['--simulate-aws on dynalite', ['--simulate-aws', '--store', 'dynamodb'], /--simulate-aws runs on the memory store/],
    ['a fractional worker-machine count', ['--worker-machines', '1.5'], /--worker-machines must be an integer ≥ 0, not 1.5/],
    ['a seed without --faults', ['--faults-seed', '3'], /--faults-seed needs --faults/],
    ['a seed that is not a number', ['--faults', '--faults-seed', 'often'], /--faults-seed must be an integer ≥ 0, not often/],
  ])('refuses %s', (_name, argv, message) => {
    expect(() => parseBenchArgs(argv)).toThrow(message);
  });
});

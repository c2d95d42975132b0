import { parseArgs } from 'node:util';
import { DEFAULT_RESYNC_MINUTES } from '../lib/stacks/props/resync-default.js';
import { DEFAULT_FAULT_PLAN, type FaultPlan } from './faults/fault-plan.js';
import { isKeyAlgorithm, KEY_ALGORITHMS, type KeyAlgorithm } from '../shared/pki/key-algorithm.js';

/**
 * `file`: the embedded default (ADR 0131), the in-memory store kept in a journal file in the run's
 * data dir; `memory`: the same with no file; `dynamodb`: the DynamoDB adapter on dynalite (or `--endpoint`).
 */
export const BENCH_STORE_KINDS = ['file', 'memory', 'dynamodb'] as const;
export type BenchStoreKind = (typeof BENCH_STORE_KINDS)[number];

function isBenchStoreKind(value: string): value is BenchStoreKind {
  return BENCH_STORE_KINDS.some((kind) => kind === value);
}

/** What one benchmark run does; `npm run bench -- --help` lists the flags. */
export interface BenchOptions {
  clusters: number;
  /** Control-plane replicas per cluster (KubeadmControlPlane). */
  controlPlaneReplicas: number;
  /** Worker replicas per cluster (MachineDeployment). */
  workerReplicas: number;
  store: BenchStoreKind;
  /** InMemoryMachine startupSeconds: how long a simulated machine takes to boot. */
  provisionSeconds: number;
  /**
   * kubeadm encryptionAlgorithm of each cluster's CAs and keys. ECDSA-P256 by default: an RSA-2048
   * key costs ~0.2 s of CPU here and a cluster needs five, which alone would dominate the run.
   */
  keyAlgorithm: KeyAlgorithm;
  /** Write the JSON report here as well as printing the table. */
  jsonFile?: string;
  /** Client requests in flight at once against the API. */
  clientConcurrency: number;
  /**
   * Reconciles of one kind at once inside the control plane (per reconcile worker with
   * `reconcileWorkers`; ADR 0133); with `simulateAws`, of all kinds together (Lambda's concurrency).
   */
  reconcileConcurrency: number;
  /** Reconcile worker threads (`capless up --workers`, ADR 0115); 0 runs the reconcilers on the main thread. */
  reconcileWorkers: number;
  /** Seconds between full resyncs, for the at-rest cost (default: the deployed period, ADR 0110). */
  resyncSeconds: number;
  /** Give up (and report what was reached) after this many seconds per phase. */
  timeoutSeconds: number;
  /** Print the control plane's errors and warnings to stderr. */
  verbose?: boolean;
  /** Inject faults (issue 16): the run is made twice, clean and faulty, and compared. */
  faults?: FaultPlan;
  /** An AWS-compatible DynamoDB endpoint (DynamoDB Local, LocalStack) instead of the embedded dynalite. */
  endpoint?: string;
  /** Create each cluster through a ClusterClass and `spec.topology` instead of writing its parts. */
  topology?: boolean;
  /**
   * `--simulate-aws`: the memory store with every reconciler store call delayed this many ms
   * (DynamoDB's per-call latency), `--concurrency` as Lambda's; the report projects 1,000 and
   * 10,000 clusters at C = 10, 100, 1,000 from the run (bench/aws-projection.ts).
   */
  simulateAws?: { storeLatencyMs: number };
}

export const USAGE = `npm run bench -- [--clusters N] [--cp C] [--worker-machines W] [--workers P] [--store file|memory|dynamodb]
                 [--provision-seconds S] [--json FILE] [--endpoint URL] [--client-concurrency K]
                 [--concurrency R] [--resync-seconds T] [--timeout-seconds X]
                 [--key-algorithm ${KEY_ALGORITHMS.join('|')}] [--faults [--faults-seed N]] [--topology] [--verbose]
                 [--simulate-aws [--store-latency-ms L]]
defaults: N=100 C=1 W=3 P=0 store=file S=0 K=16 R=8 T=${DEFAULT_RESYNC_MINUTES * 60} X=1800 L=5 key-algorithm=ECDSA-P256`;

/** DynamoDB's single-digit-millisecond per-call latency, within a Region. */
export const DEFAULT_STORE_LATENCY_MS = 5;

export const DEFAULT_BENCH_OPTIONS: BenchOptions = {
  clusters: 100,
  controlPlaneReplicas: 1,
  workerReplicas: 3,
  store: 'file',
  provisionSeconds: 0,
  keyAlgorithm: 'ECDSA-P256',
  clientConcurrency: 16,
  reconcileConcurrency: 8,
  reconcileWorkers: 0,
  resyncSeconds: DEFAULT_RESYNC_MINUTES * 60,
  timeoutSeconds: 1800,
};

/** Parses `npm run bench` arguments; throws with the usage text on anything it does not know. */
export function parseBenchArgs(argv: readonly string[]): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      clusters: { type: 'string' },
      cp: { type: 'string' },
      'worker-machines': { type: 'string' },
      workers: { type: 'string' },
      store: { type: 'string' },
      'provision-seconds': { type: 'string' },
      json: { type: 'string' },
      endpoint: { type: 'string' },
      'client-concurrency': { type: 'string' },
      concurrency: { type: 'string' },
      'resync-seconds': { type: 'string' },
      'timeout-seconds': { type: 'string' },
      'key-algorithm': { type: 'string' },
      verbose: { type: 'boolean' },
      faults: { type: 'boolean' },
      'faults-seed': { type: 'string' },
      topology: { type: 'boolean' },
      'simulate-aws': { type: 'boolean' },
      'store-latency-ms': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const d = DEFAULT_BENCH_OPTIONS;
  const store = values.store ?? d.store;
  if (!isBenchStoreKind(store)) throw new Error(`--store must be ${BENCH_STORE_KINDS.join(', ')}, not ${store}\n${USAGE}`);
  const keyAlgorithm = values['key-algorithm'] ?? d.keyAlgorithm;
  if (!isKeyAlgorithm(keyAlgorithm)) throw new Error(`--key-algorithm must be one of ${KEY_ALGORITHMS.join(', ')}\n${USAGE}`);
  const options: BenchOptions = {
    clusters: count('--clusters', values.clusters, d.clusters, 1),
    controlPlaneReplicas: count('--cp', values.cp, d.controlPlaneReplicas, 1),
    workerReplicas: count('--worker-machines', values['worker-machines'], d.workerReplicas, 0),
    store,
    provisionSeconds: count('--provision-seconds', values['provision-seconds'], d.provisionSeconds, 0),
    keyAlgorithm,
    clientConcurrency: count('--client-concurrency', values['client-concurrency'], d.clientConcurrency, 1),
    reconcileConcurrency: count('--concurrency', values.concurrency, d.reconcileConcurrency, 1),
    reconcileWorkers: count('--workers', values.workers, d.reconcileWorkers, 0),
    resyncSeconds: count('--resync-seconds', values['resync-seconds'], d.resyncSeconds, 1),
    timeoutSeconds: count('--timeout-seconds', values['timeout-seconds'], d.timeoutSeconds, 1),
  };
  if (values.json !== undefined) options.jsonFile = values.json;
  if (values.verbose) options.verbose = true;
  if (values.faults) options.faults = { ...DEFAULT_FAULT_PLAN, seed: count('--faults-seed', values['faults-seed'], DEFAULT_FAULT_PLAN.seed, 0) };
  else if (values['faults-seed'] !== undefined) throw new Error(`--faults-seed needs --faults\n${USAGE}`);
  if (values.topology) options.topology = true;
  if (values['simulate-aws']) {
    if (values.store !== undefined && store !== 'memory') throw new Error(`--simulate-aws runs on the memory store\n${USAGE}`);
    options.store = 'memory';
    options.simulateAws = { storeLatencyMs: count('--store-latency-ms', values['store-latency-ms'], DEFAULT_STORE_LATENCY_MS, 0) };
  } else if (values['store-latency-ms'] !== undefined) throw new Error(`--store-latency-ms needs --simulate-aws\n${USAGE}`);
  if (values.endpoint !== undefined) {
    if (store !== 'dynamodb') throw new Error(`--endpoint needs --store dynamodb\n${USAGE}`);
    options.endpoint = values.endpoint;
  }
  return options;
}

function count(flag: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new Error(`${flag} must be an integer ≥ ${min}, not ${text}\n${USAGE}`);
  return value;
}

import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const BIN = resolve(import.meta.dirname, '../bin/capless.mjs');
const RUNS = 5;

export interface CliStartReport {
  /** Median wall time of one `capless <verb>` run against the benchmark's control plane, process start to exit. */
  getMs: number;
  describeMs: number;
  applyMs: number;
}

/**
 * How quickly the `capless` CLI starts and answers, as a user runs it (`node bin/capless.mjs`):
 * one warm-up run (it bundles the CLI if the bundle is stale), then the median of five runs of
 * `get`, `describe` and `apply`. Measured here, not asserted in a test.
 */
export async function measureCliStart(kubeconfigPath: string, namespace: string): Promise<CliStartReport> {
  const work = await mkdtemp(join(tmpdir(), 'capless-cli-start-'));
  try {
    const manifest = join(work, 'cm.yaml');
    await writeFile(manifest, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cli-start\n  namespace: ${namespace}\ndata:\n  a: b\n`);
    const base = ['--kubeconfig', kubeconfigPath];
    await time(['get', 'clusters', '-A', ...base]);
    return {
      getMs: await median(['get', 'clusters', '-A', ...base]),
      describeMs: await median(['describe', 'cluster', 'cli-start-missing', '-n', namespace, ...base]),
      applyMs: await median(['apply', '-f', manifest, ...base]),
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function median(args: string[]): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await time(args));
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] ?? 0;
}

async function time(args: string[]): Promise<number> {
  const started = performance.now();
  // A non-zero exit (describe of a missing cluster) still measures a full start and answer.
  await promisify(execFile)(process.execPath, [BIN, ...args], { env: { ...process.env } }).catch(() => undefined);
  return performance.now() - started;
}

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

/**
 * Cluster API's clusterctl for the real-client tests, built from the Go module proxy by
 * scripts/build-clusterctl.sh into `.tools/clusterctl-<version>/` (cached: later runs reuse it).
 * The first build takes about five minutes of CPU. Resolves to the binary, or to the reason there
 * is none (Go missing, the build failed), which the tests print as their skip reason.
 * `CLUSTERCTL` names a binary to use instead.
 */
export const CLUSTERCTL_VERSION = 'v1.14.0';
const REPO = resolve(import.meta.dirname, '../..');
const SCRIPT = resolve(REPO, 'scripts/build-clusterctl.sh');

export async function clusterctlBinary(): Promise<{ path: string } | { skip: string }> {
  if (process.env.CLUSTERCTL) return existsSync(process.env.CLUSTERCTL) ? { path: process.env.CLUSTERCTL } : { skip: `CLUSTERCTL=${process.env.CLUSTERCTL} does not exist` };
  try {
    const { stdout } = await promisify(execFile)(SCRIPT, [], { cwd: REPO, env: { ...process.env, CLUSTERCTL_VERSION }, timeout: 20 * 60_000, maxBuffer: 16 * 1024 * 1024 });
    const path = stdout.trim().split('\n').at(-1) ?? '';
    return existsSync(path) ? { path } : { skip: `scripts/build-clusterctl.sh printed no binary: ${stdout.slice(-300)}` };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    if (failed.code === 2) return { skip: `clusterctl ${CLUSTERCTL_VERSION} cannot be built here: ${String(failed.stderr ?? '').trim()}` };
    return { skip: `building clusterctl ${CLUSTERCTL_VERSION} failed: ${String(failed.stderr ?? error).slice(-500)}` };
  }
}

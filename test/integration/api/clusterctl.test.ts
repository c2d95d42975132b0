import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { type ControlPlane, startControlPlane } from '../../../local/control-plane.js';
import { stringAt, valueAt } from '../../../shared/contracts/json.js';
import { clusterctlBinary } from '../../support/clusterctl-binary.js';
import { eventually } from '../../support/eventually.js';
import { runTool } from '../../support/kubectl-binaries.js';
import { controlPlaneName, lifecycleCluster, workerPoolName } from '../../support/lifecycle-manifests.js';

/**
 * Cluster API's own clusterctl v1.14 against `capless up` (TLS, the kubeconfig it writes),
 * unchanged: `describe cluster` and `get kubeconfig`. clusterctl first reads the Cluster CRD to
 * check the contract, then lists the cluster's objects (MachinePools included).
 */
const CLUSTER = 'described';
const NS = 'default';

let plane: ControlPlane | undefined;
let dataDir: string;
let home: string;
let clusterctl: { path: string } | { skip: string };

beforeAll(async () => {
  clusterctl = await clusterctlBinary();
  if ('skip' in clusterctl) return;
  dataDir = await mkdtemp(join(tmpdir(), 'capless-clusterctl-'));
  home = await mkdtemp(join(tmpdir(), 'capless-clusterctl-home-'));
  plane = await startControlPlane({ dataDir, port: 0, tls: true, persist: false });
  const manifest = join(home, 'cluster.yaml');
  await writeFile(manifest, lifecycleCluster(CLUSTER, { namespace: NS, controlPlaneReplicas: 1, workerReplicas: 1 }).map((o) => stringify(o)).join('---\n'));
  const applied = await runTool('kubectl', ['apply', '-f', manifest], env());
  if (applied.code !== 0) throw new Error(`kubectl apply failed: ${applied.stderr}`);
}, 25 * 60_000);

afterAll(async () => {
  await plane?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  if (home) await rm(home, { recursive: true, force: true });
});

function env(): NodeJS.ProcessEnv {
  // No version check: it would call GitHub.
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, KUBECONFIG: plane?.kubeconfigPath ?? '', CLUSTERCTL_DISABLE_VERSIONCHECK: 'true' };
}

function binary(context: { skip: (note?: string) => never }): string {
  if ('skip' in clusterctl) context.skip(clusterctl.skip);
  return 'path' in clusterctl ? clusterctl.path : '';
}

describe('clusterctl v1.14 against capless', () => {
  it('describe cluster shows the cluster, its control plane and workers with their conditions, once it is Available', async (context) => {
    const bin = binary(context);
    const described = await eventually('clusterctl describe to show the Cluster Available', async (report) => {
      const result = await runTool(bin, ['describe', 'cluster', CLUSTER, '-n', NS], env());
      report(result);
      return result.code === 0 && /^Cluster default\/described\s.*True\s+Available/m.test(result.stdout) ? result : undefined;
    });
    expect(described.stderr).toBe('');
    expect(described.stdout).toMatch(/^NAME\s+REPLICAS\s+AVAILABLE\s+READY\s+UP TO DATE\s+STATUS\s+REASON\s+SINCE\s+MESSAGE/);
    for (const line of [
      /├─InMemoryCluster default\/described\s.*True/,
      new RegExp(`├─KubeadmControlPlane default/${controlPlaneName(CLUSTER)}, v1\\.32\\.0\\s+1/1\\s.*True\\s+Available`),
      /└─Workers/,
      new RegExp(`└─MachineDeployment default/${workerPoolName(CLUSTER)}, v1\\.32\\.0\\s+1/1\\s.*True\\s+Available`),
    ]) {
      expect(described.stdout).toMatch(line);
    }
  });

  it('describe cluster on a name that does not exist fails with the reason', async (context) => {
    const result = await runTool(binary(context), ['describe', 'cluster', 'missing', '-n', NS], env());
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/not found/);
  });

  it("get kubeconfig prints the workload cluster's admin kubeconfig", async (context) => {
    const result = await runTool(binary(context), ['get', 'kubeconfig', CLUSTER, '-n', NS], env());
    expect(result.stderr).toBe('');
    const config: unknown = parse(result.stdout);
    expect(stringAt(config, 'current-context')).toBe(`${CLUSTER}-admin@${CLUSTER}`);
    expect(result.stdout).toContain('certificate-authority-data:');
    expect(result.stdout).toContain('client-certificate-data:');
  });

  async function machinesOf(label: string, owner: string): Promise<{ names: string[]; running: boolean }> {
    const listed = await runTool('kubectl', ['get', 'machines', '-n', NS, '-l', `${label}=${owner}`, '-o', 'json'], env());
    const items = valueAt(parse(listed.stdout || '{}'), 'items');
    const machines: unknown[] = Array.isArray(items) ? items : [];
    const live = machines.filter((m) => stringAt(m, 'metadata', 'deletionTimestamp') === undefined);
    return { names: live.map((m) => stringAt(m, 'metadata', 'name') ?? '').sort(), running: live.every((m) => stringAt(m, 'status', 'phase') === 'Running') };
  }

  it.for([
    ['machinedeployment', workerPoolName(CLUSTER), 'cluster.x-k8s.io/deployment-name'],
    ['kubeadmcontrolplane', controlPlaneName(CLUSTER), 'cluster.x-k8s.io/control-plane-name'],
  ] as const)('alpha rollout restart %s replaces its Machines with new ones', async ([resource, name, label], context) => {
    const bin = binary(context);
    const before = await eventually(`the Machines of ${name} to run`, async (report) => {
      const found = await machinesOf(label, name);
      report(found);
      return found.names.length === 1 && found.running ? found.names : undefined;
    });
    // Timestamps have whole seconds: a Machine made in the second rollout.after names is not older than it.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const restarted = await runTool(bin, ['alpha', 'rollout', 'restart', `${resource}/${name}`, '-n', NS], env());
    expect(restarted.stderr).toBe('');
    expect(restarted.code).toBe(0);
    const after = await eventually(`${name}'s Machines to be replaced`, async (report) => {
      const found = await machinesOf(label, name);
      report(found);
      return found.names.length === 1 && found.running && !found.names.some((n) => before.includes(n)) ? found.names : undefined;
    });
    expect(after).toHaveLength(1);
  });
});

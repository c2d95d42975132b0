import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { initCommand } from '../../../cli/commands/init.js';
import { type ControlPlane, startControlPlane } from '../../../local/control-plane.js';
import { numberAt, recordAt, stringAt } from '../../../shared/contracts/json.js';
import { CLUSTER_SCOPE_NAMESPACE, type KubeObject, LABEL_CLUSTER_NAME, type StoredObject } from '../../../shared/contracts/object.js';
import type { LabelSelectorTerm } from '../../../shared/ports/object-store.js';
import { clusterctlBinary } from '../../support/clusterctl-binary.js';
import { eventually } from '../../support/eventually.js';
import { runTool } from '../../support/kubectl-binaries.js';
import { lifecycleCluster } from '../../support/lifecycle-manifests.js';
import { runCli } from '../../support/run-cli.js';

/**
 * Cluster API's own `clusterctl move` v1.14, unchanged, from one `capless up` to another (both
 * with `capless init`'s provider inventory): the source pauses the cluster and gives it up, the
 * target takes every object over (the Namespace it makes first, with a protobuf body) and brings
 * the cluster back Available on the same Machines. The Machines take their addresses from an
 * in-cluster IPAM pool, which moves with its addresses (its CRD's move-hierarchy label): on the
 * target no address is handed out twice.
 */
const CLUSTER = 'moved';
const NS = 'default';
const POOL = 'node-ips';
const POOL_V1ALPHA2 = 'ipam.cluster.x-k8s.io/v1alpha2';

/** The pool, then the cluster with every InMemoryMachineTemplate taking addresses from it (three for two Machines). */
function pooledCluster(): KubeObject[] {
  const pool = { apiVersion: POOL_V1ALPHA2, kind: 'InClusterIPPool', metadata: { name: POOL, namespace: NS }, spec: { addresses: ['10.20.0.10-10.20.0.12'], prefix: 24, gateway: '10.20.0.1' } };
  const cluster = lifecycleCluster(CLUSTER, { namespace: NS, controlPlaneReplicas: 1, workerReplicas: 1 }).map((object) => {
    if (object.kind !== 'InMemoryMachineTemplate') return object;
    const spec = recordAt(object, 'spec', 'template', 'spec') ?? {};
    return { ...object, spec: { template: { spec: { ...spec, addressesFromPools: [{ apiGroup: 'ipam.cluster.x-k8s.io', kind: 'InClusterIPPool', name: POOL }] } } } };
  });
  return [pool, ...cluster];
}

/** What makes up the cluster, by kind: everything clusterctl must take along. */
const PARTS = [
  ['cluster.x-k8s.io', 'Cluster'],
  ['cluster.x-k8s.io', 'MachineDeployment'],
  ['cluster.x-k8s.io', 'MachineSet'],
  ['cluster.x-k8s.io', 'Machine'],
  ['controlplane.cluster.x-k8s.io', 'KubeadmControlPlane'],
  ['bootstrap.cluster.x-k8s.io', 'KubeadmConfig'],
  ['bootstrap.cluster.x-k8s.io', 'KubeadmConfigTemplate'],
  ['infrastructure.cluster.x-k8s.io', 'InMemoryCluster'],
  ['infrastructure.cluster.x-k8s.io', 'InMemoryMachine'],
  ['infrastructure.cluster.x-k8s.io', 'InMemoryMachineTemplate'],
  ['', 'Secret'],
  ['ipam.cluster.x-k8s.io', 'InClusterIPPool'],
  ['ipam.cluster.x-k8s.io', 'IPAddressClaim'],
  ['ipam.cluster.x-k8s.io', 'IPAddress'],
] as const;

let source: ControlPlane | undefined;
let target: ControlPlane | undefined;
const dirs: string[] = [];
let home = '';
let clusterctl: { path: string } | { skip: string };

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

async function managementCluster(): Promise<ControlPlane> {
  const plane = await startControlPlane({ dataDir: await tempDir('capless-move-'), port: 0, tls: true, persist: false });
  const init = await runCli(initCommand, [], { kubeconfigPath: plane.kubeconfigPath, cwd: home });
  if (init.code !== 0) throw new Error(`capless init failed: ${init.stderr}`);
  return plane;
}

beforeAll(async () => {
  clusterctl = await clusterctlBinary();
  if ('skip' in clusterctl) return;
  home = await tempDir('capless-move-home-');
  source = await managementCluster();
  target = await managementCluster();
  const manifest = join(home, 'cluster.yaml');
  await writeFile(manifest, pooledCluster().map((o) => stringify(o)).join('---\n'));
  const applied = await runTool('kubectl', ['apply', '-f', manifest], env(source));
  if (applied.code !== 0) throw new Error(`kubectl apply failed: ${applied.stderr}`);
}, 25 * 60_000);

afterAll(async () => {
  await source?.stop();
  await target?.stop();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

function env(plane: ControlPlane | undefined): NodeJS.ProcessEnv {
  // No version check: it would call GitHub.
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, KUBECONFIG: plane?.kubeconfigPath ?? '', CLUSTERCTL_DISABLE_VERSIONCHECK: 'true' };
}

function binary(context: { skip: (note?: string) => never }): string {
  if ('skip' in clusterctl) context.skip(clusterctl.skip);
  return 'path' in clusterctl ? clusterctl.path : '';
}

function available(cluster: StoredObject | undefined): boolean {
  const conditions = cluster?.status?.conditions;
  return Array.isArray(conditions) && conditions.some((c) => stringAt(c, 'type') === 'Available' && stringAt(c, 'status') === 'True');
}

async function clusterOn(plane: ControlPlane | undefined): Promise<StoredObject | undefined> {
  return plane?.store.get({ group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: NS, name: CLUSTER });
}

/** The names of the cluster's parts on a management cluster, by kind. */
async function partsOn(plane: ControlPlane | undefined): Promise<Record<string, string[]>> {
  const parts: Record<string, string[]> = {};
  for (const [group, kind] of PARTS) {
    const { items } = (await plane?.store.list({ group, kind, namespace: NS })) ?? { items: [] };
    parts[kind] = items.map((o) => o.metadata.name).filter((name) => name.startsWith(CLUSTER) || name === POOL).sort();
  }
  return parts;
}

async function machinesOn(plane: ControlPlane | undefined): Promise<StoredObject[]> {
  const selector: LabelSelectorTerm[] = [{ key: LABEL_CLUSTER_NAME, operator: 'Equals', values: [CLUSTER] }];
  return (await plane?.store.list({ group: 'cluster.x-k8s.io', kind: 'Machine', namespace: NS, labelSelector: selector }))?.items ?? [];
}

async function poolOn(plane: ControlPlane | undefined): Promise<StoredObject | undefined> {
  return plane?.store.get({ group: 'ipam.cluster.x-k8s.io', kind: 'InClusterIPPool', namespace: NS, name: POOL });
}

function internalIPs(machine: KubeObject): string[] {
  const addresses = machine.status?.addresses;
  if (!Array.isArray(addresses)) return [];
  return addresses.flatMap((a: unknown) => (stringAt(a, 'type') === 'InternalIP' ? [stringAt(a, 'address') ?? ''] : []));
}

describe('clusterctl v1.14 move between two capless management clusters', () => {
  it('moves an Available cluster whole: nothing stays on the source, the target runs it on the same Machines', async (context) => {
    const bin = binary(context);
    await eventually('the cluster to be Available on the source', async () => (available(await clusterOn(source)) ? true : undefined));
    const before = await partsOn(source);
    const sourceIPs = (await machinesOn(source)).flatMap(internalIPs).sort();
    expect(sourceIPs).toHaveLength(2);
    expect(before.Machine).toHaveLength(2);
    expect(before.InMemoryMachineTemplate).toEqual([`${CLUSTER}-control-plane`, `${CLUSTER}-md-0`]);

    const moved = await runTool(bin, ['move', '-n', NS, '--kubeconfig', source?.kubeconfigPath ?? '', '--to-kubeconfig', target?.kubeconfigPath ?? ''], env(source), 180_000);
    // clusterctl logs to stderr.
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stderr).toContain('Moving Cluster API objects Clusters=1');
    expect(moved.stderr).not.toMatch(/error|retrying/i);

    expect(Object.values(await partsOn(source)).flat()).toEqual([]);
    expect(await partsOn(target)).toEqual(before);
    const namespace = await target?.store.get({ group: '', kind: 'Namespace', namespace: CLUSTER_SCOPE_NAMESPACE, name: NS });
    expect(namespace?.status?.phase).toBe('Active');

    const cluster = await eventually('the moved cluster to be Available on the target, unpaused', async () => {
      const found = await clusterOn(target);
      return found?.spec?.paused !== true && available(found) ? found : undefined;
    });
    // The target made no Machine of its own: the moved ones carry on, owned by the target's objects.
    expect(await partsOn(target)).toEqual(before);
    const md = await target?.store.get({ group: 'cluster.x-k8s.io', kind: 'MachineDeployment', namespace: NS, name: `${CLUSTER}-md-0` });
    expect(md?.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'Cluster', name: CLUSTER, uid: cluster.metadata.uid })]);

    // The moved Machines keep their addresses; the target's pool counts them and hands out only the one left.
    expect((await machinesOn(target)).flatMap(internalIPs).sort()).toEqual(sourceIPs);
    await eventually('the moved pool to count 2 addresses used', async () => (numberAt(await poolOn(target), 'status', 'ipAddresses', 'used') === 2 ? true : undefined));
    const scaled = await runTool('kubectl', ['patch', 'machinedeployment', `${CLUSTER}-md-0`, '-n', NS, '--type', 'merge', '-p', '{"spec":{"replicas":2}}'], env(target));
    expect(scaled.code, scaled.stderr).toBe(0);
    const all = await eventually(
      "a third Machine Running with the pool's last address",
      async () => {
        const machines = await machinesOn(target);
        const ips = machines.flatMap(internalIPs);
        return machines.length === 3 && machines.every((m) => m.status?.phase === 'Running') && ips.length === 3 ? ips.sort() : undefined;
      },
      { timeoutMs: 120_000 },
    );
    expect(all).toEqual(['10.20.0.10', '10.20.0.11', '10.20.0.12']);
  });
});

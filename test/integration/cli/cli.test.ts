import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { applyCommand } from '../../../cli/commands/apply.js';
import { deleteCommand } from '../../../cli/commands/delete.js';
import { describeCommand } from '../../../cli/commands/describe.js';
import { getCommand } from '../../../cli/commands/get.js';
import { waitCommand } from '../../../cli/commands/wait.js';
import type { IoCommand } from '../../../cli/io/define-command.js';
import { stringAt } from '../../../shared/contracts/json.js';
import type { KubeObject } from '../../../shared/contracts/object.js';
import { type TestApi, type TestApiFactory, startTestApi } from '../../support/api-server.js';
import { startControlPlaneApi } from '../../support/control-plane-api.js';
import { type RunCliOptions, runCli } from '../../support/run-cli.js';

/**
 * The CLI end to end against a real API server. The server factory is the seam:
 * CAPLESS_CLI_TEST_API=control-plane runs it against the whole embedded control plane. There 19 of
 * 22 pass; the describe tree, "No resources found" and the exact wait transcript assume a store
 * nobody else writes (reconcilers create Machines and set conditions), so a converging variant of
 * those belongs with the e2e scenario.
 */
const startApi: TestApiFactory = process.env.CAPLESS_CLI_TEST_API === 'control-plane' ? startControlPlaneApi : startTestApi;

const repoRoot = resolve(import.meta.dirname, '../../..');
const SAMPLE = resolve(repoRoot, 'test/fixtures/simple-cluster.yaml');
const CORE = 'cluster.x-k8s.io';

let api: TestApi;
let work: string;
const cli = (command: IoCommand, args: string[], options: Omit<RunCliOptions, 'kubeconfigPath'> = {}) =>
  runCli(command, args, { kubeconfigPath: api.kubeconfigPath, cwd: work, ...options });
const key = (kind: string, name: string, group = CORE) => ({ group, kind, namespace: 'default', name });

beforeAll(async () => {
  api = await startApi();
  work = await mkdtemp(join(tmpdir(), 'capless-cli-'));
});
afterAll(async () => {
  await api.close();
  await rm(work, { recursive: true, force: true });
});

describe('capless apply', () => {
  it('creates every document of the sample, then reports unchanged, then configured after an edit', async () => {
    const first = await cli(applyCommand, ['-f', SAMPLE]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout.trim().split('\n')).toEqual([
      'cluster.cluster.x-k8s.io/my-cluster created',
      'dockercluster.infrastructure.cluster.x-k8s.io/my-cluster created',
      'kubeadmcontrolplane.controlplane.cluster.x-k8s.io/controlplane created',
      'dockermachinetemplate.infrastructure.cluster.x-k8s.io/controlplane created',
      'machinedeployment.cluster.x-k8s.io/worker-md-0 created',
      'dockermachinetemplate.infrastructure.cluster.x-k8s.io/worker created',
      'kubeadmconfigtemplate.bootstrap.cluster.x-k8s.io/worker created',
    ]);
    const again = await cli(applyCommand, ['-f', SAMPLE]);
    expect(again.stdout).not.toContain('created');
    expect(again.stdout.match(/unchanged/g)).toHaveLength(7);

    const edited = join(work, 'md.yaml');
    await writeFile(edited, `apiVersion: cluster.x-k8s.io/v1beta2\nkind: MachineDeployment\nmetadata:\n  name: worker-md-0\nspec:\n  replicas: 3\n`);
    const before = await api.store.get(key('MachineDeployment', 'worker-md-0'));
    const changed = await cli(applyCommand, ['-f', edited]);
    expect(changed.stderr).toBe('');
    expect(changed.stdout).toBe('machinedeployment.cluster.x-k8s.io/worker-md-0 configured\n');
    const after = await api.store.get(key('MachineDeployment', 'worker-md-0'));
    expect(after?.spec?.replicas).toBe(3);
    expect(after?.spec?.clusterName).toBe('my-cluster');
    expect(after?.metadata.generation).toBe((before?.metadata.generation ?? 0) + 1);
  });

  it('reads a directory and stdin', async () => {
    const dir = join(work, 'manifests');
    await rm(dir, { recursive: true, force: true });
    await mkdtemp(join(work, 'x')).then((d) => rm(d, { recursive: true }));
    await import('node:fs/promises').then((fs) => fs.mkdir(dir));
    await writeFile(join(dir, 'a.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-dir\n');
    await writeFile(join(dir, 'ignored.txt'), 'not a manifest');
    expect((await cli(applyCommand, ['-f', dir])).stdout).toBe('configmap/from-dir created\n');
    const piped = await cli(applyCommand, ['-f', '-'], { stdin: '---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-stdin\n---\n' });
    expect(piped.stdout).toBe('configmap/from-stdin created\n');
  });

  it('reports a rejected object and exits 1', async () => {
    const bad = join(work, 'bad.yaml');
    await writeFile(bad, 'apiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\nmetadata:\n  name: Bad_Name\nbogus: 1\n');
    const run = await cli(applyCommand, ['-f', bad]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Cluster\/Bad_Name/);
  });
});

describe('capless get', () => {
  it.each([
    [['clusters'], /^NAME\s+AVAILABLE\s+PHASE\s+AGE\nmy-cluster\s/],
    [['cluster', '-A'], /^NAMESPACE\s+NAME\s+AVAILABLE\s+PHASE\s+AGE\ndefault\s+my-cluster\s/],
    [['clusters.cluster.x-k8s.io', 'my-cluster'], /^NAME\s+AVAILABLE\s+PHASE\s+AGE\nmy-cluster\s/],
    [['kcp'], /^NAME\s+CLUSTER\s+INITIALIZED\s+REPLICAS\s+READY-REPLICAS\s+READY\s+AGE\ncontrolplane\s/],
    [['kubeadmcontrolplane'], /^NAME\s+CLUSTER\s+INITIALIZED/],
    [['md', '-o', 'wide'], /^NAME\s+CLUSTER\s+REPLICAS\s+READY-REPLICAS\s+AVAILABLE\s+PHASE\s+AGE\s+VERSION\nworker-md-0\s+my-cluster\s+3\s.*v1\.37\.0-beta\.0\n$/],
    [['md', '-o', 'name'], /^machinedeployment\.cluster\.x-k8s\.io\/worker-md-0\n$/],
    [['dockermachinetemplates'], /^NAME\s+AGE\ncontrolplane\s+\S+\nworker\s+\S+\n$/],
  ])('get %j', async (args, expected) => {
    const run = await cli(getCommand, args);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(expected);
  });

  it('prints one object as YAML and a list as JSON', async () => {
    const yaml: unknown = parse((await cli(getCommand, ['cluster', 'my-cluster', '-o', 'yaml'])).stdout);
    expect(stringAt(yaml, 'kind')).toBe('Cluster');
    expect(stringAt(yaml, 'metadata', 'uid')).toMatch(/./);
    expect(stringAt(yaml, 'spec', 'controlPlaneRef', 'kind')).toBe('KubeadmControlPlane');
    const json: unknown = JSON.parse((await cli(getCommand, ['machines', '-o', 'json'])).stdout);
    expect(stringAt(json, 'kind')).toBe('List');
  });

  it('says what is missing', async () => {
    expect(await cli(getCommand, ['machines'])).toMatchObject({ code: 0, stderr: 'No resources found in default namespace.\n' });
    expect(await cli(getCommand, ['widgets'])).toMatchObject({ code: 2, stderr: expect.stringContaining('the server doesn\'t have a resource type "widgets"') });
    expect(await cli(getCommand, ['cluster', 'nope'])).toMatchObject({ code: 1, stderr: 'Error from server (NotFound): clusters.cluster.x-k8s.io "nope" not found\n' });
  });
});

describe('capless describe cluster', () => {
  it('shows the cluster tree: infrastructure, control plane machines, workers by MachineDeployment', async () => {
    await api.store.updateStatus(withStatus(await mustGet(key('Cluster', 'my-cluster')), {
      phase: 'Provisioning',
      conditions: [
        { type: 'Available', status: 'False', reason: 'NotAvailable', message: 'control plane not initialized', lastTransitionTime: new Date().toISOString() },
        { type: 'InfrastructureReady', status: 'True', reason: 'Ready', lastTransitionTime: new Date().toISOString() },
      ],
    }));
    await api.store.updateStatus(withStatus(await mustGet(key('DockerCluster', 'my-cluster', 'infrastructure.cluster.x-k8s.io')), {
      conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', lastTransitionTime: new Date().toISOString() }],
    }));
    await createMachine('controlplane-abcde', { 'cluster.x-k8s.io/control-plane': '' }, 'Running');
    await createMachine('worker-md-0-x1', { 'cluster.x-k8s.io/deployment-name': 'worker-md-0' }, 'Provisioning');
    await createMachine('stray', {}, 'Pending');

    const run = await cli(describeCommand, ['cluster', 'my-cluster']);
    expect(run.stderr).toBe('');
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.map((l) => /^(\s*\S.*?)(?:\s{2,}|$)/.exec(l)?.[1])).toEqual([
      'NAME',
      'Cluster/my-cluster',
      '├─ClusterInfrastructure - DockerCluster/my-cluster',
      '├─ControlPlane - KubeadmControlPlane/controlplane',
      '│ └─Machine/controlplane-abcde',
      '└─Workers',
      '  ├─MachineDeployment/worker-md-0',
      '  │ └─Machine/worker-md-0-x1',
      '  └─Machine/stray',
    ]);
    expect(lines[1]).toMatch(/^Cluster\/my-cluster\s+False\s+Provisioning\s+\d+s\s+control plane not initialized$/);
    expect(lines[2]).toMatch(/DockerCluster\/my-cluster\s+True\s/);
    expect(lines[4]).toMatch(/Machine\/controlplane-abcde\s+False\s+Running\s+\d+s\s+waiting for the node$/);

    const withConditions = await cli(describeCommand, ['cluster', 'my-cluster', '--show-conditions']);
    expect(withConditions.stdout).toMatch(/\n├─Available\s+False\s+NotAvailable\s+\d+s\s+control plane not initialized\n├─InfrastructureReady\s+True\s+Ready/);
  });

  it('fails clearly for a missing cluster', async () => {
    expect(await cli(describeCommand, ['cluster', 'ghost'])).toMatchObject({ code: 1, stderr: expect.stringContaining('NotFound') });
  });
});

describe('capless get kubeconfig', () => {
  it('prints the decoded value of <cluster>-kubeconfig', async () => {
    const kubeconfig = 'apiVersion: v1\nkind: Config\nclusters: []\n';
    await api.store.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'my-cluster-kubeconfig', namespace: 'default', labels: { 'cluster.x-k8s.io/cluster-name': 'my-cluster' } },
      type: 'cluster.x-k8s.io/secret',
      data: { value: Buffer.from(kubeconfig).toString('base64') },
    });
    expect(await cli(getCommand, ['kubeconfig', 'my-cluster'])).toMatchObject({ code: 0, stdout: kubeconfig });
    expect((await cli(getCommand, ['kubeconfig', 'other'])).code).toBe(1);
  });
});

describe('capless wait', () => {
  it('polls until the condition holds, showing progress', async () => {
    const run = await cli(waitCommand, ['cluster/my-cluster', '--for=condition=Available', '--timeout=1m'], {
      onSleep: async (n) => {
        if (n === 2) await setClusterAvailable();
      },
    });
    expect(run).toMatchObject({ code: 0, sleeps: 2 });
    expect(run.stdout).toBe(
      'waiting for cluster.cluster.x-k8s.io/my-cluster: Available=False (NotAvailable: control plane not initialized)\ncluster.cluster.x-k8s.io/my-cluster condition met\n',
    );
  });

  it('rewrites one live line on a TTY', async () => {
    const run = await cli(waitCommand, ['cluster/my-cluster', "--for=jsonpath='{.status.phase}'=Provisioned"], {
      isTTY: true,
      onSleep: async (n) => {
        if (n === 1) await api.store.updateStatus(withStatus(await mustGet(key('Cluster', 'my-cluster')), { phase: 'Provisioned' }));
      },
    });
    expect(run.code).toBe(0);
    const clearLine = '\r\u001b[2K';
    expect(run.stdout.split(clearLine)).toEqual(['', expect.stringMatching(/^waiting for cluster\.cluster\.x-k8s\.io\/my-cluster: \.status\.phase=Provisioning \(\d+s\)$/), 'cluster.cluster.x-k8s.io/my-cluster condition met\n']);
  });

  it('times out with exit 1 and the last state seen', async () => {
    let clock = 0;
    const run = await cli(waitCommand, ['cluster/my-cluster', '--for=condition=Ready', '--timeout=5s'], { now: () => (clock += 1_000) });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('timed out waiting for the condition on cluster.cluster.x-k8s.io/my-cluster (last seen: Ready not reported yet)');
  });
});

describe('capless delete', () => {
  it('--wait polls until a finalizer is released and the object is gone', async () => {
    const md = await mustGet(key('MachineDeployment', 'worker-md-0'));
    await api.store.update({ ...md, metadata: { ...md.metadata, finalizers: ['cluster.x-k8s.io/machinedeployment'] } });
    const run = await cli(deleteCommand, ['md', 'worker-md-0', '--wait', '--timeout', '5m'], {
      onSleep: async (n) => {
        if (n !== 3) return;
        const deleting = await mustGet(key('MachineDeployment', 'worker-md-0'));
        expect(deleting.metadata.deletionTimestamp).toBeDefined();
        await api.store.update({ ...deleting, metadata: { ...deleting.metadata, finalizers: [] } });
      },
    });
    expect(run).toMatchObject({ code: 0, sleeps: 3 });
    expect(run.stdout).toMatch(/^machinedeployment\.cluster\.x-k8s\.io "worker-md-0" deleted\n/);
    expect(await api.store.get(key('MachineDeployment', 'worker-md-0'))).toBeUndefined();
  });

  it('wait --for=delete returns once the object is gone', async () => {
    const run = await cli(waitCommand, ['dockercluster/my-cluster', '--for=delete'], {
      onSleep: async () => {
        await api.store.delete(key('DockerCluster', 'my-cluster', 'infrastructure.cluster.x-k8s.io'));
      },
    });
    expect(run).toMatchObject({ code: 0, stdout: expect.stringContaining('dockercluster.infrastructure.cluster.x-k8s.io/my-cluster deleted') });
  });

  it('deletes everything a manifest names; what went with an object deleted before it counts as deleted', async () => {
    const run = await cli(deleteCommand, ['-f', SAMPLE, '--wait']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('cluster.cluster.x-k8s.io "my-cluster" deleted');
    expect(run.stdout).toContain('dockercluster.infrastructure.cluster.x-k8s.io "my-cluster" deleted (already gone with an object deleted before it)');
    expect(run.stderr).toBe('');
    expect((await api.store.list({ group: CORE, kind: 'Cluster' })).items).toEqual([]);
    expect((await cli(deleteCommand, ['-f', SAMPLE, '--ignore-not-found'])).code).toBe(0);
    const again = await cli(deleteCommand, ['-f', SAMPLE]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('Error from server (NotFound): cluster.cluster.x-k8s.io "my-cluster" not found');
  });
});

async function mustGet(k: ReturnType<typeof key>) {
  const found = await api.store.get(k);
  if (!found) throw new Error(`missing ${k.kind}/${k.name}`);
  return found;
}

function withStatus<T extends KubeObject>(object: T, status: Record<string, unknown>): T {
  return { ...object, status: { ...object.status, ...status } };
}

async function setClusterAvailable(): Promise<void> {
  const cluster = await mustGet(key('Cluster', 'my-cluster'));
  await api.store.updateStatus(withStatus(cluster, {
    conditions: [{ type: 'Available', status: 'True', reason: 'Available', lastTransitionTime: new Date().toISOString() }],
  }));
}

async function createMachine(name: string, labels: Record<string, string>, phase: string): Promise<void> {
  const created = await api.store.create({
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Machine',
    metadata: { name, namespace: 'default', labels: { 'cluster.x-k8s.io/cluster-name': 'my-cluster', ...labels } },
    spec: { clusterName: 'my-cluster', bootstrap: {}, infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DockerMachine', name } },
  });
  await api.store.updateStatus(withStatus(created, {
    phase,
    conditions: [{ type: 'Ready', status: 'False', reason: 'NodeNotReady', message: 'waiting for the node', lastTransitionTime: new Date().toISOString() }],
  }));
}

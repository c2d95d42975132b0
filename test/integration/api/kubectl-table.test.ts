import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, startTestApi } from '../../support/api-server.js';
import { KUBECTL_BINARIES, runTool, toolEnv } from '../../support/kubectl-binaries.js';
import { crdDescriptions } from '../../../shared/contracts/crds/crd-descriptions.js';

/** Table output with Cluster API's printer columns, the served CRDs and `explain`, once per kubectl binary. */
describe.each(KUBECTL_BINARIES)('kubectl (%s): tables, CRDs, explain', (KUBECTL) => {
  let api: TestApi;
  let home: string;
  const kubectl = (...args: string[]) => runTool(KUBECTL, args, toolEnv(home, api.kubeconfigPath));

  beforeAll(async () => {
    api = await startTestApi();
    home = await mkdtemp(join(tmpdir(), 'capless-kubectl-table-'));
    const cluster = await api.store.create({
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Cluster',
      metadata: { name: 'tabled', namespace: 'team-a' },
      spec: { topology: { classRef: { name: 'quick-start' }, version: 'v1.32.0' } },
    });
    await api.store.updateStatus({
      ...cluster,
      status: { phase: 'Provisioned', conditions: [{ type: 'Available', status: 'True', reason: 'Available', lastTransitionTime: '2026-01-01T00:00:00Z' }], controlPlane: { desiredReplicas: 3, availableReplicas: 3, upToDateReplicas: 3 }, workers: { desiredReplicas: 2, availableReplicas: 1, upToDateReplicas: 2 } },
    });
    await api.store.create({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Machine', metadata: { name: 'tabled-m1', namespace: 'team-a' }, spec: { clusterName: 'tabled', version: 'v1.32.0' } });
  });
  afterAll(async () => {
    await api.close();
    await rm(home, { recursive: true, force: true });
  });

  const rows = (stdout: string) => stdout.trim().split('\n').map((line) => line.trim().split(/\s{2,}/));

  it('get clusters,machines -A prints the columns and cells Cluster API defines', async () => {
    const result = await kubectl('get', 'clusters,machines', '-A');
    expect(result.stderr).toBe('');
    const [clusterHeader, clusterRow, , machineHeader, machineRow] = result.stdout.split('\n\n').flatMap((block) => [...rows(block), []]);
    expect(clusterHeader).toEqual(['NAMESPACE', 'NAME', 'CLUSTERCLASS', 'AVAILABLE', 'CP DESIRED', 'CP AVAILABLE', 'CP UP-TO-DATE', 'W DESIRED', 'W AVAILABLE', 'W UP-TO-DATE', 'PHASE', 'AGE', 'VERSION']);
    expect(clusterRow?.slice(0, 11)).toEqual(['team-a', 'cluster.cluster.x-k8s.io/tabled', 'quick-start', 'True', '3', '3', '3', '2', '1', '2', 'Provisioned']);
    expect(clusterRow?.at(-1)).toBe('v1.32.0');
    expect(machineHeader).toEqual(['NAMESPACE', 'NAME', 'CLUSTER', 'NODE NAME', 'FAILURE DOMAIN', 'READY', 'AVAILABLE', 'UP-TO-DATE', 'PHASE', 'AGE', 'VERSION']);
    expect(machineRow?.slice(0, 3)).toEqual(['team-a', 'machine.cluster.x-k8s.io/tabled-m1', 'tabled']);
  });

  it('-o wide adds the priority columns', async () => {
    const result = await kubectl('get', 'cl', '-n', 'team-a', '-o', 'wide');
    expect(rows(result.stdout)[0]).toEqual(['NAME', 'CLUSTERCLASS', 'AVAILABLE', 'CP DESIRED', 'CP CURRENT', 'CP READY', 'CP AVAILABLE', 'CP UP-TO-DATE', 'W DESIRED', 'W CURRENT', 'W READY', 'W AVAILABLE', 'W UP-TO-DATE', 'PAUSED', 'PHASE', 'AGE', 'VERSION']);
  });

  it("get crd names the CRD of every served kind and carries the contract labels and clusterctl's", async () => {
    const list = await kubectl('get', 'crd', '-o', 'name');
    expect(list.stdout).toContain('customresourcedefinition.apiextensions.k8s.io/clusters.cluster.x-k8s.io\n');
    expect(list.stdout).toContain('customresourcedefinition.apiextensions.k8s.io/kubeadmcontrolplanes.controlplane.cluster.x-k8s.io\n');
    const labels = await kubectl('get', 'crd', 'clusters.cluster.x-k8s.io', '-o', 'jsonpath={.metadata.labels}');
    expect(JSON.parse(labels.stdout)).toEqual({
      'cluster.x-k8s.io/v1beta1': 'v1beta1',
      'cluster.x-k8s.io/v1beta2': 'v1beta2',
      'clusterctl.cluster.x-k8s.io': '',
      'cluster.x-k8s.io/provider': 'cluster-api',
    });
  });

  it('explain clusters.spec.clusterNetwork lists its fields', async () => {
    const result = await kubectl('explain', 'clusters.spec.clusterNetwork');
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/KIND:\s+Cluster/);
    for (const field of ['apiServerPort', 'pods', 'serviceDomain', 'services']) expect(result.stdout).toContain(field);
  });

  it.each([
    ['kubeadmcontrolplanes.spec', 'KubeadmControlPlane', ['kubeadmConfigSpec', 'machineTemplate', 'replicas', 'version']],
    ['inmemorymachines.spec', 'InMemoryMachine', ['providerID']],
    ['machinedeployments.spec.template.spec', 'MachineDeployment', ['bootstrap', 'clusterName', 'infrastructureRef', 'version']],
  ])('explain %s lists the fields of %s', async (path, kind, fields) => {
    const result = await kubectl('explain', path);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(new RegExp(`KIND:\\s+${kind}`));
    for (const field of fields) expect(result.stdout).toMatch(new RegExp(`^\\s+${field}\\s`, 'm'));
  });

  it("explain cluster.spec.topology prints Cluster API's description", async () => {
    const result = await kubectl('explain', 'cluster.spec.topology');
    expect(result.stderr).toBe('');
    const expected = crdDescriptions('cluster.x-k8s.io', 'Cluster')?.get('spec.topology') ?? '';
    expect(expected).toMatch(/^topology encapsulates/);
    // kubectl wraps the text: compare it word for word.
    const words = (text: string) => text.split(/\s+/).filter((word) => word !== '');
    expect(words(result.stdout).join(' ')).toContain(words(expected).slice(0, 12).join(' '));
    expect(result.stdout).toMatch(/classRef/);
  });
});

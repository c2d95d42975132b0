/**
 * Bad topology input through the embedded control plane's HTTP API: what admission can tell is a
 * 422 naming the field and changes nothing; what only the reconcilers can tell is a condition
 * naming the problem, and nothing already running is touched.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ControlPlane, startControlPlane } from '../../../local/control-plane.js';
import { conditionsOf, findCondition } from '../../../shared/contracts/conditions.js';
import { valueAt } from '../../../shared/contracts/json.js';
import type { KubeObject } from '../../../shared/contracts/object.js';
import { eventually } from '../../support/eventually.js';
import { RestClient, statusCauseFields } from '../../support/rest-client.js';

const NS = 'bad-topology';
const CORE = 'cluster.x-k8s.io/v1beta2';
const INFRA = 'infrastructure.cluster.x-k8s.io/v1beta2';
const CP = 'controlplane.cluster.x-k8s.io/v1beta2';
const BOOT = 'bootstrap.cluster.x-k8s.io/v1beta2';

let plane: ControlPlane;
let api: RestClient;
let dataDir: string;

const meta = (name: string) => ({ name, namespace: NS });
const zero = { provisioning: { startupDuration: '0s' } };

function templates(prefix: string): KubeObject[] {
  return [
    { apiVersion: INFRA, kind: 'DevClusterTemplate', metadata: meta(`${prefix}-cluster`), spec: { template: { spec: { backend: { inMemory: {} } } } } },
    { apiVersion: CP, kind: 'KubeadmControlPlaneTemplate', metadata: meta(`${prefix}-cp`), spec: { template: { spec: { kubeadmConfigSpec: {} } } } },
    { apiVersion: INFRA, kind: 'DevMachineTemplate', metadata: meta(`${prefix}-machine`), spec: { template: { spec: { backend: { inMemory: { vm: zero, node: zero } } } } } },
    { apiVersion: BOOT, kind: 'KubeadmConfigTemplate', metadata: meta(`${prefix}-bootstrap`), spec: { template: { spec: {} } } },
  ];
}

function clusterClass(name: string, prefix: string, patches: unknown[] = []): KubeObject {
  return {
    apiVersion: CORE,
    kind: 'ClusterClass',
    metadata: meta(name),
    spec: {
      infrastructure: { templateRef: { apiVersion: INFRA, kind: 'DevClusterTemplate', name: `${prefix}-cluster` } },
      controlPlane: {
        templateRef: { apiVersion: CP, kind: 'KubeadmControlPlaneTemplate', name: `${prefix}-cp` },
        machineInfrastructure: { templateRef: { apiVersion: INFRA, kind: 'DevMachineTemplate', name: `${prefix}-machine` } },
      },
      workers: {
        machineDeployments: [
          {
            class: 'worker',
            bootstrap: { templateRef: { apiVersion: BOOT, kind: 'KubeadmConfigTemplate', name: `${prefix}-bootstrap` } },
            infrastructure: { templateRef: { apiVersion: INFRA, kind: 'DevMachineTemplate', name: `${prefix}-machine` } },
          },
        ],
      },
      variables: [
        { name: 'size', required: true, schema: { openAPIV3Schema: { type: 'string', enum: ['small', 'large'] } } },
        { name: 'count', required: false, schema: { openAPIV3Schema: { type: 'integer', minimum: 1, default: 2 } } },
      ],
      // An empty list is left out, as Cluster API's CRD (minItems 1) requires.
      ...(patches.length > 0 ? { patches } : {}),
    },
  };
}

function cluster(name: string, className: string, variables: unknown[]): KubeObject {
  return {
    apiVersion: CORE,
    kind: 'Cluster',
    metadata: meta(name),
    spec: {
      topology: {
        classRef: { name: className },
        version: 'v1.33.0',
        controlPlane: { replicas: 1 },
        workers: { machineDeployments: [{ class: 'worker', name: 'md-0', replicas: 1 }] },
        variables,
      },
    },
  };
}

const condition = (o: KubeObject | undefined, type: string) => findCondition(conditionsOf(o?.status), type);

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'capless-topology-bad-'));
  plane = await startControlPlane({ dataDir, port: 0, persist: false });
  api = new RestClient(plane.url, plane.token);
  for (const object of [...templates('ok'), clusterClass('ok', 'ok')]) await api.mustCreate(object);
});

afterAll(async () => {
  await plane?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('bad topology input through the HTTP API', () => {
  it.each<[string, KubeObject, string]>([
    ['an unknown class', cluster('c-unknown', 'nope', [{ name: 'size', value: 'small' }]), 'spec.topology.classRef.name'],
    ['an unknown MachineDeployment class', { ...cluster('c-mdclass', 'ok', [{ name: 'size', value: 'small' }]), spec: { topology: { classRef: { name: 'ok' }, version: 'v1.33.0', workers: { machineDeployments: [{ class: 'gpu', name: 'md-0' }] }, variables: [{ name: 'size', value: 'small' }] } } }, 'spec.topology.workers.machineDeployments[0].class'],
    ['a variable of the wrong type', cluster('c-type', 'ok', [{ name: 'size', value: 'small' }, { name: 'count', value: 'two' }]), 'spec.topology.variables[1].value'],
    ['a value outside its enum', cluster('c-enum', 'ok', [{ name: 'size', value: 'huge' }]), 'spec.topology.variables[0].value'],
    ['a missing required variable', cluster('c-missing', 'ok', []), 'spec.topology.variables'],
  ])('%s is a 422 naming the field, and nothing is stored', async (_name, object, field) => {
    const response = await api.create(object);
    expect(response.status).toBe(422);
    expect(statusCauseFields(response.body)).toContain(field);
    expect(await api.get(CORE, 'Cluster', NS, object.metadata.name)).toBeUndefined();
  });

  it('a patch path outside /spec is a 422 on the ClusterClass', async () => {
    const response = await api.create(
      clusterClass('bad-path', 'ok', [
        { name: 'p', definitions: [{ selector: { apiVersion: CP, kind: 'KubeadmControlPlaneTemplate', matchResources: { controlPlane: true } }, jsonPatches: [{ op: 'add', path: '/metadata/labels/x', value: 'y' }] }] },
      ]),
    );
    expect(response.status).toBe(422);
    expect(statusCauseFields(response.body)).toContain('spec.patches[0].definitions[0].jsonPatches[0].path');
  });

  it('defaults from the schema are written into the Cluster', async () => {
    const created = await api.mustCreate(cluster('c-defaults', 'ok', [{ name: 'size', value: 'small' }]));
    expect(valueAt(created, 'spec', 'topology', 'variables')).toEqual([
      { name: 'size', value: 'small' },
      { name: 'count', value: 2 },
    ]);
  });

  it('a bad variable on a running cluster is refused and changes nothing', async () => {
    const before = await api.get(CORE, 'Cluster', NS, 'c-defaults');
    const response = await api.tryMergePatch(CORE, 'Cluster', NS, 'c-defaults', { spec: { topology: { variables: [{ name: 'size', value: 3 }] } } });
    expect(response.status).toBe(422);
    expect(statusCauseFields(response.body)).toContain('spec.topology.variables[0].value');
    const after = await api.get(CORE, 'Cluster', NS, 'c-defaults');
    // The controllers keep writing the rest of the spec (refs, endpoint) meanwhile; the refused patch must not have touched the topology.
    expect(after?.spec?.topology).toEqual(before?.spec?.topology);
  });

  it('a class whose templates do not exist says so on the class and on its Clusters; nothing is created', async () => {
    await api.mustCreate(clusterClass('missing', 'absent'));
    const cc = await eventually('the class names the missing templates', async (report) => {
      const c = await api.get(CORE, 'ClusterClass', NS, 'missing');
      report(c?.status);
      return condition(c, 'RefVersionsUpToDate')?.status === 'False' ? c : undefined;
    });
    expect(condition(cc, 'RefVersionsUpToDate')?.message).toContain('DevClusterTemplate bad-topology/absent-cluster');
    await api.mustCreate(cluster('c-missing-templates', 'missing', [{ name: 'size', value: 'small' }]));
    const c = await eventually('the Cluster waits on its class', async (report) => {
      const got = await api.get(CORE, 'Cluster', NS, 'c-missing-templates');
      report(got?.status);
      return condition(got, 'TopologyReconciled')?.status === 'False' ? got : undefined;
    });
    expect(condition(c, 'TopologyReconciled')).toMatchObject({ reason: 'ClusterClassNotReconciled' });
    expect(await api.list(CP, 'KubeadmControlPlane', NS, 'cluster.x-k8s.io/cluster-name=c-missing-templates')).toEqual([]);
  });

  it('a template that does not render is a TopologyReconciled condition naming the patch; running objects are not touched', async () => {
    const running = await eventually('c-defaults has its control plane', async () => (await api.list(CP, 'KubeadmControlPlane', NS, 'cluster.x-k8s.io/cluster-name=c-defaults'))[0]);
    const broken = {
      name: 'broken',
      definitions: [
        { selector: { apiVersion: CP, kind: 'KubeadmControlPlaneTemplate', matchResources: { controlPlane: true } }, jsonPatches: [{ op: 'add', path: '/spec/template/spec/kubeadmConfigSpec/clusterConfiguration', valueFrom: { template: 'x: {{ .builtin.nothing.name }}' } }] },
      ],
    };
    await api.mergePatch(CORE, 'ClusterClass', NS, 'ok', { spec: { patches: [broken] } });
    const c = await eventually('the Cluster names the broken patch', async (report) => {
      const got = await api.get(CORE, 'Cluster', NS, 'c-defaults');
      report(condition(got, 'TopologyReconciled'));
      return condition(got, 'TopologyReconciled')?.reason === 'ReconcileFailed' ? got : undefined;
    });
    expect(condition(c, 'TopologyReconciled')?.message).toContain('patch "broken" failed on the control plane template');
    const after = await api.get(CP, 'KubeadmControlPlane', NS, running.metadata.name);
    expect(after?.metadata.generation).toBe(running.metadata.generation);
    expect(after?.spec).toEqual(running.spec);
  });
});

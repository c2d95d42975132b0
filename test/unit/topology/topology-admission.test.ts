/**
 * ClusterClass admission (schema and webhook rules) and Cluster topology admission against a
 * class: bad input is a 422 naming the field; defaults from variable schemas are written in.
 */

import { describe, expect, it } from 'vitest';
import { admitCreate } from '../../../shared/contracts/admission/admit.js';
import { clone, type JsonRecord } from '../../../shared/contracts/json.js';
import type { KubeObject } from '../../../shared/contracts/object.js';
import { admitClusterTopology } from '../../../shared/contracts/topology/cluster-topology-admission.js';
import { InvalidError } from '../../../shared/errors/index.js';
import { ctx } from '../../contracts/admission-fixtures.js';

const ref = (apiVersion: string, kind: string, name: string) => ({ apiVersion, kind, name });
const INFRA = 'infrastructure.cluster.x-k8s.io/v1beta2';

function clusterClass(extra: JsonRecord = {}): JsonRecord {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'ClusterClass',
    metadata: { name: 'cc', namespace: 'ns' },
    spec: {
      infrastructure: { templateRef: ref(INFRA, 'DevClusterTemplate', 'c') },
      controlPlane: { templateRef: ref('controlplane.cluster.x-k8s.io/v1beta2', 'KubeadmControlPlaneTemplate', 'cp') },
      workers: {
        machineDeployments: [
          {
            class: 'default-worker',
            bootstrap: { templateRef: ref('bootstrap.cluster.x-k8s.io/v1beta2', 'KubeadmConfigTemplate', 'b') },
            infrastructure: { templateRef: ref(INFRA, 'DevMachineTemplate', 'm') },
          },
        ],
      },
      variables: [
        { name: 'imageRepository', required: true, schema: { openAPIV3Schema: { type: 'string', default: '' } } },
        { name: 'tag', required: true, schema: { openAPIV3Schema: { type: 'string' } } },
        {
          name: 'pss',
          required: false,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: { enabled: { type: 'boolean', default: true }, enforce: { type: 'string', enum: ['baseline', 'restricted'] } },
            },
          },
        },
        { name: 'replicas', required: false, schema: { openAPIV3Schema: { type: 'integer', minimum: 1, maximum: 5 } } },
      ],
      patches: [
        {
          name: 'tag',
          enabledIf: '{{ ne .tag "" }}',
          definitions: [
            {
              selector: { apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2', kind: 'KubeadmControlPlaneTemplate', matchResources: { controlPlane: true } },
              jsonPatches: [{ op: 'add', path: '/spec/template/spec/x', valueFrom: { template: 'tag: {{ .tag }}' } }],
            },
          ],
        },
      ],
      ...extra,
    },
  };
}

function patched(mutate: (spec: JsonRecord) => void): JsonRecord {
  const cc = clusterClass();
  mutate(cc.spec as JsonRecord);
  return cc;
}

function fieldsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidError) return error.causes.map((c) => c.field ?? '');
    throw error;
  }
  return [];
}

describe('ClusterClass admission', () => {
  it('accepts a valid class', () => {
    expect(() => admitCreate(clusterClass(), ctx)).not.toThrow();
  });

  it.each<[string, (spec: JsonRecord) => void, string]>([
    ['a patch path outside /spec', (s) => ((s.patches as JsonRecord[])[0] = { ...((s.patches as JsonRecord[])[0] ?? {}), definitions: [{ selector: { apiVersion: 'a/v1', kind: 'K', matchResources: { controlPlane: true } }, jsonPatches: [{ op: 'add', path: '/metadata/labels', value: {} }] }] }), 'spec.patches[0].definitions[0].jsonPatches[0].path'],
    ['a template that does not parse', (s) => ((s.patches as JsonRecord[])[0] = { name: 'p', definitions: [{ selector: { apiVersion: 'a/v1', kind: 'K', matchResources: { controlPlane: true } }, jsonPatches: [{ op: 'add', path: '/spec/x', valueFrom: { template: '{{ if .tag }}' } }] }] }), 'spec.patches[0].definitions[0].jsonPatches[0].valueFrom.template'],
    ['an enabledIf that does not parse', (s) => ((s.patches as JsonRecord[])[0] = { name: 'p', enabledIf: '{{ .x', definitions: [] }), 'spec.patches[0].enabledIf'],
    ['an undefined variable', (s) => ((s.patches as JsonRecord[])[0] = { name: 'p', definitions: [{ selector: { apiVersion: 'a/v1', kind: 'K', matchResources: { controlPlane: true } }, jsonPatches: [{ op: 'add', path: '/spec/x', valueFrom: { variable: 'nope' } }] }] }), 'spec.patches[0].definitions[0].jsonPatches[0].valueFrom.variable'],
    ['value and valueFrom both set', (s) => ((s.patches as JsonRecord[])[0] = { name: 'p', definitions: [{ selector: { apiVersion: 'a/v1', kind: 'K', matchResources: { controlPlane: true } }, jsonPatches: [{ op: 'add', path: '/spec/x', value: 1, valueFrom: { variable: 'tag' } }] }] }), 'spec.patches[0].definitions[0].jsonPatches[0]'],
    ['a duplicate variable', (s) => (s.variables as JsonRecord[]).push({ name: 'tag', required: false, schema: { openAPIV3Schema: { type: 'string' } } }), 'spec.variables[4].name'],
    ['a default outside the schema', (s) => (s.variables as JsonRecord[]).push({ name: 'n', required: false, schema: { openAPIV3Schema: { type: 'integer', default: 'x' } } }), 'spec.variables[4].schema.openAPIV3Schema.default'],
    ['a duplicate MachineDeployment class', (s) => ((s.workers as { machineDeployments: unknown[] }).machineDeployments.push(clone((s.workers as { machineDeployments: unknown[] }).machineDeployments[0]))), 'spec.workers.machineDeployments[1]'],
    ['a templateRef without a name', (s) => ((s.infrastructure as JsonRecord).templateRef = { apiVersion: INFRA, kind: 'DevClusterTemplate' }), 'spec.infrastructure.templateRef.name'],
  ])('refuses %s with the field at fault', (_name, mutate, field) => {
    expect(fieldsOf(() => admitCreate(patched(mutate), ctx))).toContain(field);
  });

  it('converts a v1beta1 class (ref → templateRef, machineHealthCheck → healthCheck)', () => {
    const v1beta1 = {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'ClusterClass',
      metadata: { name: 'old', namespace: 'ns' },
      spec: {
        infrastructure: { ref: { apiVersion: INFRA, kind: 'DevClusterTemplate', name: 'c' } },
        controlPlane: {
          ref: { apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1', kind: 'KubeadmControlPlaneTemplate', name: 'cp' },
          machineHealthCheck: { nodeStartupTimeout: '10m', unhealthyConditions: [{ type: 'Ready', status: 'False', timeout: '5m' }] },
        },
        workers: {
          machineDeployments: [
            {
              class: 'w',
              template: {
                bootstrap: { ref: { apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta1', kind: 'KubeadmConfigTemplate', name: 'b' } },
                infrastructure: { ref: { apiVersion: INFRA, kind: 'DevMachineTemplate', name: 'm' } },
              },
            },
          ],
        },
      },
    };
    const admitted = admitCreate(v1beta1, ctx);
    expect(admitted.apiVersion).toBe('cluster.x-k8s.io/v1beta2');
    expect(admitted.spec?.controlPlane).toMatchObject({
      templateRef: { kind: 'KubeadmControlPlaneTemplate', name: 'cp' },
      healthCheck: { checks: { nodeStartupTimeoutSeconds: 600, unhealthyNodeConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: 300 }] } },
    });
    expect(admitted.spec?.workers).toEqual({
      machineDeployments: [
        {
          class: 'w',
          bootstrap: { templateRef: { apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta1', kind: 'KubeadmConfigTemplate', name: 'b' } },
          infrastructure: { templateRef: { apiVersion: INFRA, kind: 'DevMachineTemplate', name: 'm' } },
        },
      ],
    });
  });
});

function cluster(topology: JsonRecord): KubeObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Cluster',
    metadata: { name: 'c1', namespace: 'ns' },
    spec: { topology: { classRef: { name: 'cc' }, version: 'v1.33.0', ...topology } },
  };
}

const readClass = async (namespace: string, name: string) =>
  namespace === 'ns' && name === 'cc' ? admitCreate(clusterClass(), ctx) : undefined;

async function topologyFields(topology: JsonRecord): Promise<string[]> {
  try {
    await admitClusterTopology(cluster(topology), undefined, readClass);
  } catch (error) {
    if (error instanceof InvalidError) return error.causes.map((c) => c.field ?? '');
    throw error;
  }
  return [];
}

describe('Cluster topology admission against its class', () => {
  it('applies schema defaults: unset variables with a default, and defaults inside values', async () => {
    const admitted = await admitClusterTopology(
      cluster({ variables: [{ name: 'tag', value: 'v1' }, { name: 'pss', value: { enforce: 'restricted' } }] }),
      undefined,
      readClass,
    );
    expect(admitted.spec?.topology).toMatchObject({
      variables: [
        { name: 'tag', value: 'v1' },
        { name: 'pss', value: { enabled: true, enforce: 'restricted' } },
        { name: 'imageRepository', value: '' },
      ],
    });
  });

  it.each<[string, JsonRecord, string]>([
    ['an unknown class', { classRef: { name: 'nope' } }, 'spec.topology.classRef.name'],
    ['a missing required variable', { variables: [] }, 'spec.topology.variables'],
    ['a variable of the wrong type', { variables: [{ name: 'tag', value: 3 }] }, 'spec.topology.variables[0].value'],
    ['a value outside its enum', { variables: [{ name: 'tag', value: 'x' }, { name: 'pss', value: { enforce: 'nope' } }] }, 'spec.topology.variables[1].value.enforce'],
    ['an unknown field in an object variable', { variables: [{ name: 'tag', value: 'x' }, { name: 'pss', value: { extra: 1 } }] }, 'spec.topology.variables[1].value.extra'],
    ['an integer out of bounds', { variables: [{ name: 'tag', value: 'x' }, { name: 'replicas', value: 9 }] }, 'spec.topology.variables[1].value'],
    ['an undefined variable', { variables: [{ name: 'tag', value: 'x' }, { name: 'nope', value: 1 }] }, 'spec.topology.variables[1].name'],
    ['an unknown MachineDeployment class', { variables: [{ name: 'tag', value: 'x' }], workers: { machineDeployments: [{ class: 'gpu', name: 'md-0' }] } }, 'spec.topology.workers.machineDeployments[0].class'],
    ['a duplicate MachineDeployment name', { variables: [{ name: 'tag', value: 'x' }], workers: { machineDeployments: [{ class: 'default-worker', name: 'a' }, { class: 'default-worker', name: 'a' }] } }, 'spec.topology.workers.machineDeployments[1].name'],
    ['a bad override', { variables: [{ name: 'tag', value: 'x' }], workers: { machineDeployments: [{ class: 'default-worker', name: 'a', variables: { overrides: [{ name: 'tag', value: false }] } }] } }, 'spec.topology.workers.machineDeployments[0].variables.overrides[0].value'],
    ['a bad control-plane override', { variables: [{ name: 'tag', value: 'x' }], controlPlane: { variables: { overrides: [{ name: 'replicas', value: 0 }] } } }, 'spec.topology.controlPlane.variables.overrides[0].value'],
  ])('refuses %s with the field at fault', async (_name, topology, field) => {
    expect(await topologyFields(topology)).toContain(field);
  });

  it.each([
    ['v1.33.0', 'v1.32.5', 'version cannot be decreased'],
    ['v1.33.0', 'v1.35.0', 'upgrade one minor version at a time'],
    ['v1.33.0', 'v2.0.0', 'upgrade one minor version at a time'],
  ])('refuses a version change from %s to %s', async (from, to, message) => {
    const variables = [{ name: 'tag', value: 'x' }];
    const old = cluster({ variables, version: from });
    const error = await admitClusterTopology(cluster({ variables, version: to }), old, readClass).catch((e: unknown) => e);
    if (!(error instanceof InvalidError)) throw new Error('expected a 422');
    expect(error.causes).toEqual([expect.objectContaining({ field: 'spec.topology.version' })]);
    expect(error.message).toContain(message);
  });

  it.each([['v1.33.0', 'v1.34.0'], ['v1.33.0', 'v1.33.4']])('accepts a version change from %s to %s', async (from, to) => {
    const variables = [{ name: 'tag', value: 'x' }];
    await expect(admitClusterTopology(cluster({ variables, version: to }), cluster({ variables, version: from }), readClass)).resolves.toBeDefined();
  });

  it('does not re-validate an unchanged topology (the class may be gone)', async () => {
    const c = cluster({ classRef: { name: 'gone' } });
    await expect(admitClusterTopology(c, c, readClass)).resolves.toBe(c);
  });
});

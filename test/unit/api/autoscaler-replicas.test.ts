import { describe, expect, it } from 'vitest';
import { handleApiRequest } from '../../../functions/api/api.js';
import { isRecord } from '../../../shared/contracts/json.js';
import type { KubeObject } from '../../../shared/contracts/object.js';
import { memoryApiDeps } from '../../support/api-deps.js';
import { lifecycleCluster } from '../../support/lifecycle-manifests.js';

/**
 * A MachineDeployment's or MachineSet's replicas default under the cluster autoscaler's node-group
 * annotations, as Cluster API's webhooks compute it: a new object starts at the minimum, and an
 * existing one whose manifest drops `replicas` (handing it to the autoscaler) keeps its count
 * within the bounds, or is brought to the nearer bound, instead of falling to 1.
 */
const admin = () => ({ name: 'admin', canReadSecrets: true, canWriteSecrets: true });
const CORE = '/apis/cluster.x-k8s.io/v1beta2/namespaces/default';
const MIN = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size';
const MAX = 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size';

type Deps = ReturnType<typeof memoryApiDeps>;

async function call(deps: Deps, method: string, path: string, body: unknown) {
  const response = await handleApiRequest({ method, path, query: new URLSearchParams(), headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }, deps);
  const parsed: unknown = JSON.parse(response.body);
  return { status: response.status, body: isRecord(parsed) ? parsed : {} };
}

function replicasOf(body: Record<string, unknown>): unknown {
  return isRecord(body.spec) ? body.spec.replicas : undefined;
}

/** The lifecycle cluster's MachineDeployment, or a MachineSet made from it, with these annotations and replicas. */
function pool(kind: 'MachineDeployment' | 'MachineSet', annotations: Record<string, string>, replicas: number | undefined): KubeObject {
  const md = lifecycleCluster('c1', { controlPlaneReplicas: 1, workerReplicas: 1 }).find((o) => o.kind === 'MachineDeployment');
  if (!md || !isRecord(md.spec)) throw new Error('the lifecycle cluster has no MachineDeployment');
  const { replicas: _dropped, ...spec } = md.spec;
  return { ...md, kind, metadata: { name: 'pool', annotations }, spec: { ...spec, ...(replicas !== undefined ? { replicas } : {}) } };
}

const plural = (kind: string) => `${CORE}/${kind.toLowerCase()}s`;

describe("replicas defaulted from the cluster autoscaler's annotations", () => {
  it.each([
    ['MachineDeployment', { [MIN]: '3', [MAX]: '6' }, undefined, 3],
    ['MachineSet', { [MIN]: '2', [MAX]: '4' }, undefined, 2],
    ['MachineDeployment', { [MIN]: '3', [MAX]: '6' }, 1, 1],
    ['MachineDeployment', { [MIN]: '3' }, undefined, 1],
    ['MachineDeployment', {}, undefined, 1],
  ] as const)('a new %s with annotations %j and replicas %s gets %s', async (kind, annotations, replicas, expected) => {
    const deps = memoryApiDeps({ authenticate: admin });
    const created = await call(deps, 'POST', plural(kind), pool(kind, annotations, replicas));
    expect(created.status).toBe(201);
    expect(replicasOf(created.body)).toBe(expected);
  });

  it.each([
    ['within the bounds: kept', { [MIN]: '3', [MAX]: '6' }, 5, 5],
    ['below the minimum: raised to it', { [MIN]: '3', [MAX]: '6' }, 2, 3],
    ['above the maximum: lowered to it', { [MIN]: '3', [MAX]: '6' }, 9, 6],
    ['without the annotations: the plain default', {}, 5, 1],
  ] as const)('an existing MachineDeployment updated without replicas, %s', async (_case, annotations, before, expected) => {
    const deps = memoryApiDeps({ authenticate: admin });
    const created = await call(deps, 'POST', plural('MachineDeployment'), pool('MachineDeployment', {}, before));
    expect(replicasOf(created.body)).toBe(before);
    const metadata = isRecord(created.body.metadata) ? created.body.metadata : {};
    const update = pool('MachineDeployment', annotations, undefined);
    const replaced = await call(deps, 'PUT', `${plural('MachineDeployment')}/pool`, { ...update, metadata: { ...update.metadata, resourceVersion: metadata.resourceVersion } });
    expect(replaced.status).toBe(200);
    expect(replicasOf(replaced.body)).toBe(expected);
  });

  it.each([
    ['a minimum that is not a number', { [MIN]: 'three', [MAX]: '6' }, MIN],
    ['a maximum past 32 bits', { [MIN]: '1', [MAX]: '2147483648' }, MAX],
  ])('refuses %s with a Status naming the annotation', async (_case, annotations, annotation) => {
    const deps = memoryApiDeps({ authenticate: admin });
    const refused = await call(deps, 'POST', plural('MachineDeployment'), pool('MachineDeployment', annotations, undefined));
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ kind: 'Status', details: { causes: [expect.objectContaining({ field: `metadata.annotations[${annotation}]` })] } });
  });
});

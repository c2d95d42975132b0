import { parseArgs } from 'node:util';
import { isRecord, recordAt, stringAt } from '../../shared/contracts/json.js';
import { LABEL_CLUSTER_NAME } from '../../shared/contracts/object.js';
import { isNotFoundStatus } from '../client/api-status-error.js';
import { resourcePath } from '../client/resource-types.js';
import { CONNECTION_OPTIONS, type Session, openSession } from '../client/session.js';
import { defineCommand } from '../io/define-command.js';
import { UsageError } from '../io/usage-error.js';
import { type ClusterObjects, clusterTree, renderTree } from '../output/describe-tree.js';
import { hookSummary } from '../output/hook-summary.js';

const LABEL_CONTROL_PLANE = 'cluster.x-k8s.io/control-plane';
const LABEL_DEPLOYMENT_NAME = 'cluster.x-k8s.io/deployment-name';

/** `capless describe cluster NAME [-n NS] [--show-conditions]`: the clusterctl-describe tree. */
export const describeCommand = defineCommand('describe', 'show a cluster as a tree (describe cluster NAME [--show-conditions])', async (args, io) => {
  const { values, positionals } = parseArgs({
    args,
    options: { ...CONNECTION_OPTIONS, 'show-conditions': { type: 'boolean', default: false } },
    allowPositionals: true,
    strict: true,
  });
  const [what, name, ...extra] = positionals;
  if (!what || !name || extra.length > 0 || !['cluster', 'clusters', 'cl'].includes(what.toLowerCase())) {
    throw new UsageError('usage: capless describe cluster NAME [-n NS] [--show-conditions]');
  }
  const session = await openSession(values, io);
  const objects = await collectClusterObjects(session, name);
  io.stdout.write(renderTree(clusterTree(objects), io.now(), values['show-conditions'] === true));
  io.stdout.write(hookSummary(objects.cluster));
  return 0;
});

/** Reads the cluster, what its refs name, and its Machines and MachineDeployments. */
export async function collectClusterObjects(session: Session, name: string): Promise<ClusterObjects> {
  const ns = session.namespace;
  const clusters = await session.types.forKind('cluster.x-k8s.io/v1beta2', 'Cluster');
  const cluster = await session.client.get(resourcePath(clusters, ns, name));
  const [infrastructure, controlPlane] = await Promise.all([
    readRef(session, stringAt(cluster, 'metadata', 'namespace') ?? ns, recordAt(cluster, 'spec', 'infrastructureRef')),
    readRef(session, ns, recordAt(cluster, 'spec', 'controlPlaneRef')),
  ]);
  const selector = { labelSelector: `${LABEL_CLUSTER_NAME}=${name}` };
  const machinesType = await session.types.forKind('cluster.x-k8s.io/v1beta2', 'Machine');
  const deploymentsType = await session.types.forKind('cluster.x-k8s.io/v1beta2', 'MachineDeployment');
  const [machines, deployments] = await Promise.all([
    items(session.client.get(resourcePath(machinesType, ns), selector)),
    items(session.client.get(resourcePath(deploymentsType, ns))),
  ]);
  const ownDeployments = deployments.filter((md) => (stringAt(md, 'spec', 'clusterName') ?? stringAt(md, 'metadata', 'labels', LABEL_CLUSTER_NAME)) === name);
  const label = (o: unknown, key: string) => stringAt(o, 'metadata', 'labels', key);
  const controlPlaneMachines = machines.filter((m) => label(m, LABEL_CONTROL_PLANE) !== undefined);
  const workers = machines.filter((m) => label(m, LABEL_CONTROL_PLANE) === undefined);
  const deploymentNames = new Set(ownDeployments.map((md) => stringAt(md, 'metadata', 'name')));
  return {
    cluster,
    ...(infrastructure !== undefined ? { infrastructure } : {}),
    ...(controlPlane !== undefined ? { controlPlane } : {}),
    controlPlaneMachines,
    machineDeployments: ownDeployments.map((md) => ({
      machineDeployment: md,
      machines: workers.filter((m) => label(m, LABEL_DEPLOYMENT_NAME) === stringAt(md, 'metadata', 'name')),
    })),
    otherMachines: workers.filter((m) => !deploymentNames.has(label(m, LABEL_DEPLOYMENT_NAME))),
  };
}

/** Follows a v1beta2 (`apiGroup`, `kind`, `name`) or v1beta1 (`apiVersion`, `kind`, `name`) reference; undefined when absent or not found. */
async function readRef(session: Session, namespace: string, ref: Record<string, unknown> | undefined): Promise<unknown> {
  const kind = stringAt(ref, 'kind');
  const name = stringAt(ref, 'name');
  if (!kind || !name) return undefined;
  const apiVersion = stringAt(ref, 'apiVersion');
  const group = stringAt(ref, 'apiGroup') ?? (apiVersion?.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');
  const type = await session.types.forGroupKind(group, kind);
  if (!type) return undefined;
  try {
    return await session.client.get(resourcePath(type, stringAt(ref, 'namespace') ?? namespace, name));
  } catch (error) {
    if (isNotFoundStatus(error)) return undefined;
    throw error;
  }
}

async function items(list: Promise<unknown>): Promise<unknown[]> {
  const value = await list;
  return isRecord(value) && Array.isArray(value.items) ? value.items : [];
}

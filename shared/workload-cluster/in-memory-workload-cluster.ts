/**
 * The WorkloadCluster of in-memory machines: a Node is the `status.simulatedNode` the in-memory
 * infrastructure provider writes on its InMemoryMachine, found by providerID
 * `in-memory://<namespace>/<name>`.
 */

import { isRecord, recordAt } from '../contracts/json.js';
import type { ObjectStore } from '../ports/object-store.js';
import type { WorkloadCluster, WorkloadClusterRef, WorkloadNode, WorkloadNodeCondition } from '../ports/workload-cluster.js';

export const IN_MEMORY_PROVIDER_ID_PREFIX = 'in-memory://';

export function inMemoryProviderID(namespace: string, name: string): string {
  return `${IN_MEMORY_PROVIDER_ID_PREFIX}${namespace}/${name}`;
}

export function parseInMemoryProviderID(providerID: string): { namespace: string; name: string } | undefined {
  if (!providerID.startsWith(IN_MEMORY_PROVIDER_ID_PREFIX)) return undefined;
  const [namespace, name, ...rest] = providerID.slice(IN_MEMORY_PROVIDER_ID_PREFIX.length).split('/');
  return namespace && name && rest.length === 0 ? { namespace, name } : undefined;
}

/** Reads `status.simulatedNode` defensively. */
export function simulatedNodeOf(status: unknown): WorkloadNode | undefined {
  const node = recordAt(status, 'simulatedNode');
  if (!node || typeof node.name !== 'string') return undefined;
  const info = isRecord(node.info)
    ? Object.fromEntries(Object.entries(node.info).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : undefined;
  const conditions = Array.isArray(node.conditions) ? node.conditions.flatMap(nodeConditionOf) : undefined;
  return { name: node.name, ready: node.ready === true, ...(info ? { info } : {}), ...(conditions ? { conditions } : {}) };
}

function nodeConditionOf(value: unknown): WorkloadNodeCondition[] {
  if (!isRecord(value) || typeof value.type !== 'string' || typeof value.status !== 'string') return [];
  const time = typeof value.lastTransitionTime === 'string' ? { lastTransitionTime: value.lastTransitionTime } : {};
  return [{ type: value.type, status: value.status, ...time }];
}

export class InMemoryWorkloadCluster implements WorkloadCluster {
  constructor(private readonly store: ObjectStore) {}

  async findNodeByProviderID(cluster: WorkloadClusterRef, providerID: string): Promise<WorkloadNode | undefined> {
    const parsed = parseInMemoryProviderID(providerID);
    if (!parsed || parsed.namespace !== cluster.namespace) return undefined;
    const machine = await this.store.get({
      group: 'infrastructure.cluster.x-k8s.io',
      kind: 'InMemoryMachine',
      namespace: parsed.namespace,
      name: parsed.name,
    });
    if (!machine || machine.spec?.providerID !== providerID) return undefined;
    return simulatedNodeOf(machine.status);
  }
}

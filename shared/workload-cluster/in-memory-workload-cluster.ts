/**
 * The WorkloadCluster of in-memory machines: a Node is the `status.simulatedNode` the in-memory
 * infrastructure provider writes on its InMemoryMachine, found by providerID
 * `in-memory://<namespace>/<name>`.
 */

import { isRecord, recordAt, stringAt } from '../contracts/json.js';
import type { StoredObject } from '../contracts/object.js';
import type { ObjectStore } from '../ports/object-store.js';
import type { EtcdNode, WorkloadCluster, WorkloadClusterRef, WorkloadNode, WorkloadNodeCondition } from '../ports/workload-cluster.js';
import type { InMemoryWorkloadObjects } from './in-memory-workload-objects.js';
import { SimulatedWorkloadCluster } from './simulated-workload-cluster.js';

export const IN_MEMORY_PROVIDER_ID_PREFIX = 'in-memory://';
/** DevMachines with `backend.inMemory` are simulated the same way under their own scheme. */
export const DEV_IN_MEMORY_PROVIDER_ID_PREFIX = 'dev-in-memory://';

/** The simulated machine kinds, by the providerID scheme that names them. */
const SIMULATED_KINDS: ReadonlyArray<readonly [prefix: string, kind: string]> = [
  [IN_MEMORY_PROVIDER_ID_PREFIX, 'InMemoryMachine'],
  [DEV_IN_MEMORY_PROVIDER_ID_PREFIX, 'DevMachine'],
];

export function inMemoryProviderID(namespace: string, name: string, kind = 'InMemoryMachine'): string {
  const prefix = SIMULATED_KINDS.find(([, k]) => k === kind)?.[0] ?? IN_MEMORY_PROVIDER_ID_PREFIX;
  return `${prefix}${namespace}/${name}`;
}

export function parseInMemoryProviderID(providerID: string): { namespace: string; name: string; kind: string } | undefined {
  const scheme = SIMULATED_KINDS.find(([prefix]) => providerID.startsWith(prefix));
  if (!scheme) return undefined;
  const [namespace, name, ...rest] = providerID.slice(scheme[0].length).split('/');
  return namespace && name && rest.length === 0 ? { namespace, name, kind: scheme[1] } : undefined;
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

export class InMemoryWorkloadCluster extends SimulatedWorkloadCluster {
  constructor(
    private readonly store: ObjectStore,
    objects?: InMemoryWorkloadObjects,
  ) {
    super(objects);
  }

  /** The same simulated clusters (one set of applied objects), reading Nodes through `store`. */
  readingThrough(store: ObjectStore): WorkloadCluster {
    return new InMemoryWorkloadCluster(store, this.objects);
  }

  async findNodeByProviderID(cluster: WorkloadClusterRef, providerID: string): Promise<WorkloadNode | undefined> {
    const machine = await this.simulatedMachine(cluster, providerID);
    const node = simulatedNodeOf(machine?.status);
    return node && this.objects.node(cluster, node);
  }

  /** The simulated kube-apiserver's certificate, as the in-memory provider issued it with the Node. */
  override async apiServerCertificateExpiry(cluster: WorkloadClusterRef, node: { name: string; providerID: string }): Promise<string | undefined> {
    const machine = await this.simulatedMachine(cluster, node.providerID);
    return simulatedNodeOf(machine?.status)?.name === node.name ? stringAt(machine, 'status', 'simulatedNode', 'apiServerCertificateNotAfter') : undefined;
  }

  /**
   * The in-memory provider's kubeadm starts an etcd member with each control-plane Node (the ones
   * it issued a kube-apiserver certificate for): those of the cluster, when `through` is one.
   */
  protected override async etcdNodes(cluster: WorkloadClusterRef, through: EtcdNode): Promise<EtcdNode[] | undefined> {
    const parsed = parseInMemoryProviderID(through.providerID);
    if (!parsed || parsed.namespace !== cluster.namespace) return undefined;
    const machines = await this.store.listByCluster(cluster.namespace, cluster.name, { group: 'infrastructure.cluster.x-k8s.io', kind: parsed.kind });
    const nodes = machines.flatMap((machine) => {
      const node = simulatedNodeOf(machine.status);
      const providerID = stringAt(machine, 'spec', 'providerID');
      const runsEtcd = stringAt(machine, 'status', 'simulatedNode', 'apiServerCertificateNotAfter') !== undefined;
      return node && providerID && runsEtcd ? [{ name: node.name, providerID }] : [];
    });
    return nodes.some((node) => node.name === through.name && node.providerID === through.providerID) ? nodes : undefined;
  }

  /** A simulated Node the in-memory provider issued a kube-apiserver certificate for runs a control plane. */
  protected override async controlPlaneNode(cluster: WorkloadClusterRef, node: EtcdNode): Promise<WorkloadNode | undefined> {
    const machine = await this.simulatedMachine(cluster, node.providerID);
    const found = simulatedNodeOf(machine?.status);
    const runsControlPlane = stringAt(machine, 'status', 'simulatedNode', 'apiServerCertificateNotAfter') !== undefined;
    return found?.name === node.name && runsControlPlane ? found : undefined;
  }

  private async simulatedMachine(cluster: WorkloadClusterRef, providerID: string): Promise<StoredObject | undefined> {
    const parsed = parseInMemoryProviderID(providerID);
    if (!parsed || parsed.namespace !== cluster.namespace) return undefined;
    const machine = await this.store.get({ group: 'infrastructure.cluster.x-k8s.io', kind: parsed.kind, namespace: parsed.namespace, name: parsed.name });
    return machine?.spec?.providerID === providerID ? machine : undefined;
  }
}

/**
 * The etcd of simulated workload clusters: its members are the cluster's control-plane Nodes (the
 * ones whose kubeadm started an etcd member, listed by the subclass), less the members removed
 * through it. A member's ID is derived from its Node's providerID, so it is the same in every
 * process. Removals are kept in the process, as the applied objects are.
 */
import { createHash } from 'node:crypto';
import type { EtcdMember, WorkloadClusterRef } from '../ports/workload-cluster.js';

/** A uint64 in decimal, as etcd's member IDs are written. */
export function simulatedMemberId(providerID: string): string {
  return BigInt(`0x${createHash('sha256').update(providerID).digest('hex').slice(0, 16)}`).toString(10);
}

export class InMemoryEtcd {
  private readonly removed = new Map<string, Set<string>>();

  /** The members of the cluster's etcd among `nodes` (the Nodes that started one). */
  members(cluster: WorkloadClusterRef, nodes: ReadonlyArray<{ name: string; providerID: string }>): EtcdMember[] {
    const gone = this.removedOf(cluster);
    return nodes.map((node) => ({ id: simulatedMemberId(node.providerID), name: node.name })).filter((member) => !gone.has(member.id));
  }

  remove(cluster: WorkloadClusterRef, memberId: string): void {
    this.removedOf(cluster).add(memberId);
  }

  private removedOf(cluster: WorkloadClusterRef): Set<string> {
    const key = `${cluster.namespace}/${cluster.name}`;
    let set = this.removed.get(key);
    if (!set) {
      set = new Set();
      this.removed.set(key, set);
    }
    return set;
  }
}

/**
 * The etcd of simulated workload clusters: its members are the cluster's control-plane Nodes (the
 * ones whose kubeadm started an etcd member, listed by the subclass), less the members removed
 * through it. A member's ID is derived from its Node's providerID, so it is the same in every
 * process. The leader is the first member until leadership is moved; when the leader's member is
 * removed, the first member left is elected. Removals and moves are kept in the process, as the
 * applied objects are.
 */
import { createHash } from 'node:crypto';
import { type EtcdAlarm, type EtcdMember, type EtcdNode, type EtcdStatus, type WorkloadClusterRef, WorkloadClusterUnavailableError } from '../ports/workload-cluster.js';

/** A uint64 in decimal, as etcd's member IDs are written. */
export function simulatedMemberId(providerID: string): string {
  return BigInt(`0x${createHash('sha256').update(providerID).digest('hex').slice(0, 16)}`).toString(10);
}

interface SimulatedEtcd {
  removed: Set<string>;
  leader?: string;
  /** Alarms raised on members (a test raises them; nothing in the simulation fills a disk). */
  alarms: EtcdAlarm[];
  /** Members still learners (a test makes them so; simulated joins are promoted at once). */
  learners: Set<string>;
}

export class InMemoryEtcd {
  private readonly clusters = new Map<string, SimulatedEtcd>();

  /** The members of the cluster's etcd among `nodes` (the Nodes that started one). */
  members(cluster: WorkloadClusterRef, nodes: readonly EtcdNode[]): EtcdMember[] {
    const gone = this.of(cluster).removed;
    const { learners } = this.of(cluster);
    return nodes
      .map((node) => ({ id: simulatedMemberId(node.providerID), name: node.name }))
      .filter((member) => !gone.has(member.id))
      .map((member) => (learners.has(member.id) ? { ...member, isLearner: true } : member));
  }

  /** The alarms raised on the members still in the cluster. */
  alarms(cluster: WorkloadClusterRef, nodes: readonly EtcdNode[]): EtcdAlarm[] {
    const ids = new Set(this.members(cluster, nodes).map((member) => member.id));
    return this.of(cluster).alarms.filter((alarm) => ids.has(alarm.memberId));
  }

  raiseAlarm(cluster: WorkloadClusterRef, alarm: EtcdAlarm): void {
    this.of(cluster).alarms.push({ ...alarm });
  }

  makeLearner(cluster: WorkloadClusterRef, memberId: string): void {
    this.of(cluster).learners.add(memberId);
  }

  remove(cluster: WorkloadClusterRef, memberId: string): void {
    this.of(cluster).removed.add(memberId);
  }

  /** What the member on `through` reports; its leader is "0" when no member is left. */
  status(cluster: WorkloadClusterRef, nodes: readonly EtcdNode[], through: EtcdNode): EtcdStatus {
    return { memberId: simulatedMemberId(through.providerID), leaderId: this.leaderOf(cluster, this.members(cluster, nodes)) ?? '0' };
  }

  /** Refused, as etcd refuses it, unless `through` is the leader's and the target a member. */
  moveLeader(cluster: WorkloadClusterRef, nodes: readonly EtcdNode[], through: EtcdNode, targetMemberId: string): void {
    const members = this.members(cluster, nodes);
    if (this.leaderOf(cluster, members) !== simulatedMemberId(through.providerID)) throw new WorkloadClusterUnavailableError('ConnectionDown', `moving etcd leadership through Node ${through.name}: etcdserver: not leader`);
    if (!members.some((member) => member.id === targetMemberId)) throw new WorkloadClusterUnavailableError('ConnectionDown', `moving etcd leadership through Node ${through.name}: etcdserver: bad leader transferee`);
    this.of(cluster).leader = targetMemberId;
  }

  private leaderOf(cluster: WorkloadClusterRef, members: readonly EtcdMember[]): string | undefined {
    const etcd = this.of(cluster);
    if (!members.some((member) => member.id === etcd.leader)) etcd.leader = members[0]?.id;
    return etcd.leader;
  }

  private of(cluster: WorkloadClusterRef): SimulatedEtcd {
    const key = `${cluster.namespace}/${cluster.name}`;
    let etcd = this.clusters.get(key);
    if (!etcd) {
      etcd = { removed: new Set(), alarms: [], learners: new Set() };
      this.clusters.set(key, etcd);
    }
    return etcd;
  }
}

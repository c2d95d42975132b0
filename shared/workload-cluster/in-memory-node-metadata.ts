/**
 * The labels, annotations, taints and cordon of simulated workload clusters' Nodes, kept in the process
 * beside their applied objects: what `patchNode` writes and `findNodeByProviderID` reads back,
 * with a resourceVersion per Node that a patch naming another one is refused on, as the API
 * server refuses it (409). A Node starts with the taints it registered with (kubelet's, from
 * kubeadm's nodeRegistration); simulated Nodes vanish with the process.
 */
import { clone } from '../contracts/json.js';
import type { NodePatch, NodeTaint, WorkloadClusterRef, WorkloadNode } from '../ports/workload-cluster.js';
import { WorkloadClusterConflictError } from '../ports/workload-cluster.js';
import { mergePatch } from './in-memory-workload-objects.js';

interface NodeMetadata {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  taints: NodeTaint[];
  unschedulable: boolean;
  version: number;
}

export class InMemoryNodeMetadata {
  private readonly nodes = new Map<string, NodeMetadata>();
  private readonly deleted = new Set<string>();

  /** The Node with what was written to it; a Node seen the first time is registered with `registeredTaints`. */
  decorate(cluster: WorkloadClusterRef, node: WorkloadNode, registeredTaints: readonly NodeTaint[] = []): WorkloadNode {
    const metadata = this.metadataOf(cluster, node.name, registeredTaints);
    return {
      ...node,
      labels: { ...node.labels, ...metadata.labels },
      annotations: { ...node.annotations, ...metadata.annotations },
      taints: clone(metadata.taints),
      ...(metadata.unschedulable ? { unschedulable: true } : {}),
      resourceVersion: String(metadata.version),
    };
  }

  patch(cluster: WorkloadClusterRef, nodeName: string, patch: NodePatch): void {
    const metadata = this.metadataOf(cluster, nodeName, []);
    if (patch.resourceVersion !== undefined && patch.resourceVersion !== String(metadata.version)) {
      throw new WorkloadClusterConflictError(`Node ${nodeName} was changed since resourceVersion ${patch.resourceVersion}`);
    }
    metadata.labels = mergePatch(metadata.labels, patch.labels);
    metadata.annotations = mergePatch(metadata.annotations, patch.annotations);
    if (patch.taints) metadata.taints = clone(patch.taints);
    if (patch.unschedulable !== undefined) metadata.unschedulable = patch.unschedulable;
    metadata.version += 1;
  }

  /** The Node's metadata is forgotten: a Node of that name registering again starts afresh. */
  forget(cluster: WorkloadClusterRef, nodeName: string): void {
    this.nodes.delete(`${cluster.namespace}/${cluster.name}/${nodeName}`);
    this.deleted.add(`${cluster.namespace}/${cluster.name}/${nodeName}`);
  }

  /** Whether the Node was deleted (a stand-in's kubelet does not register it again). */
  wasDeleted(cluster: WorkloadClusterRef, nodeName: string): boolean {
    return this.deleted.has(`${cluster.namespace}/${cluster.name}/${nodeName}`);
  }

  private metadataOf(cluster: WorkloadClusterRef, nodeName: string, registeredTaints: readonly NodeTaint[]): NodeMetadata {
    const key = `${cluster.namespace}/${cluster.name}/${nodeName}`;
    let metadata = this.nodes.get(key);
    if (!metadata) {
      metadata = { labels: {}, annotations: {}, taints: clone([...registeredTaints]), unschedulable: false, version: 1 };
      this.nodes.set(key, metadata);
    }
    return metadata;
  }
}

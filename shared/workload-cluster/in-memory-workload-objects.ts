/**
 * The objects applied to simulated workload clusters (ClusterResourceSet resources on in-memory
 * infrastructure, the Pods a drain evicts: in-memory-pods.ts) and their Nodes' metadata
 * (in-memory-node-metadata.ts): kept in the process, keyed by cluster and object, with the same create-only /
 * create-or-merge semantics as a real API server. Simulated clusters vanish with the process; so
 * do their objects (the ClusterResourceSetBinding in the store is the durable record).
 */
import { clone, isRecord } from '../contracts/json.js';
import type { ApplyFailure, ApplyMode, NodeTaint, WorkloadClusterRef, WorkloadNode, WorkloadObject } from '../ports/workload-cluster.js';
import { InMemoryEtcd } from './in-memory-etcd.js';
import { InMemoryNodeMetadata } from './in-memory-node-metadata.js';
import { InMemoryPods } from './in-memory-pods.js';
import { InMemoryVolumes } from './in-memory-volumes.js';

export class InMemoryWorkloadObjects {
  private readonly clusters = new Map<string, Map<string, WorkloadObject>>();
  /** The simulated Nodes' labels, annotations and taints, shared the same way. */
  readonly nodes = new InMemoryNodeMetadata();
  /** The Pods among the applied objects, as a drain lists and evicts them. */
  readonly pods = new InMemoryPods(this);
  /** The PersistentVolumes and VolumeAttachments among them, detached as their Pods leave. */
  readonly volumes = new InMemoryVolumes(this);
  /** The members removed from the simulated clusters' etcd. */
  readonly etcd = new InMemoryEtcd();

  /** A simulated Node with what was written to it and the volumes attached to it. */
  node(cluster: WorkloadClusterRef, node: WorkloadNode, registeredTaints: readonly NodeTaint[] = []): WorkloadNode {
    const attached = this.volumes.attachedNames(cluster, node.name);
    return { ...this.nodes.decorate(cluster, node, registeredTaints), ...(attached.length > 0 ? { volumesAttached: attached } : {}) };
  }

  apply(cluster: WorkloadClusterRef, objects: readonly WorkloadObject[], mode: ApplyMode): ApplyFailure[] {
    const stored = this.clusterObjects(cluster);
    for (const object of objects) {
      const key = objectKey(object);
      const current = stored.get(key);
      if (!current) stored.set(key, clone(object));
      else if (mode === 'CreateOrUpdate') stored.set(key, mergePatch(current, object));
    }
    return [];
  }

  /** The objects of one apiVersion and kind (copies), in the order they were applied. */
  list(cluster: WorkloadClusterRef, apiVersion: string, kind: string): WorkloadObject[] {
    return [...this.clusterObjects(cluster).values()].filter((o) => o.apiVersion === apiVersion && o.kind === kind).map((o) => clone(o));
  }

  /** Removes an object (what a kubelet does once a deleted Pod has stopped); whether it was there. */
  remove(cluster: WorkloadClusterRef, object: Pick<WorkloadObject, 'apiVersion' | 'kind' | 'metadata'>): boolean {
    return this.clusterObjects(cluster).delete(objectKey(object));
  }

  /** What a test (or `capless up`'s inspection) sees in a simulated cluster. */
  objectsOf(cluster: WorkloadClusterRef): WorkloadObject[] {
    return [...this.clusterObjects(cluster).values()].map((o) => clone(o));
  }

  private clusterObjects(cluster: WorkloadClusterRef): Map<string, WorkloadObject> {
    const key = `${cluster.namespace}/${cluster.name}`;
    let objects = this.clusters.get(key);
    if (!objects) {
      objects = new Map();
      this.clusters.set(key, objects);
    }
    return objects;
  }
}

function objectKey(object: Pick<WorkloadObject, 'apiVersion' | 'kind' | 'metadata'>): string {
  return [object.apiVersion, object.kind, object.metadata.namespace ?? '', object.metadata.name].join('/');
}

/** RFC 7386 JSON merge patch of `patch` onto `target`. */
export function mergePatch<T>(target: T, patch: unknown): T {
  if (!isRecord(patch)) return clone(patch) as T;
  const result: Record<string, unknown> = isRecord(target) ? clone(target) : {};
  for (const [field, value] of Object.entries(patch)) {
    if (value === null) delete result[field];
    else result[field] = mergePatch(result[field], value);
  }
  return result as T;
}

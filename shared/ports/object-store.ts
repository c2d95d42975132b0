import type { GroupKind, KubeObject, ObjectKey, StoredObject } from '../contracts/object.js';

/** A parsed label selector: all terms must match (AND). */
export type LabelSelectorTerm =
  | { key: string; operator: 'Equals'; values: [string] }
  | { key: string; operator: 'NotEquals'; values: [string] }
  | { key: string; operator: 'In' | 'NotIn'; values: string[] }
  | { key: string; operator: 'Exists' | 'DoesNotExist'; values: [] };

export interface ListQuery extends GroupKind {
  /** Omit for all namespaces. */
  namespace?: string;
  labelSelector?: LabelSelectorTerm[];
  /** Exact match on metadata.name (fieldSelector metadata.name=). */
  name?: string;
  /** Page size; omit for everything. */
  limit?: number;
  /** Opaque token from a previous page. */
  continue?: string;
}

/** The kinds a cluster list is narrowed to: one, or several read together. */
export type ClusterKinds = GroupKind | readonly GroupKind[];

export interface ListResult {
  items: StoredObject[];
  /** Set when more items follow. */
  continue?: string;
}

export type PropagationPolicy = 'Background' | 'Foreground' | 'Orphan';

export interface DeleteOptions {
  /** Precondition: delete only this version. */
  resourceVersion?: string;
  /** What happens to dependents named by ownerReferences. Default Background. */
  propagationPolicy?: PropagationPolicy;
}

export interface DeleteResult {
  /** The object as it now is: with deletionTimestamp while finalizers remain, else gone. */
  object: StoredObject;
  removed: boolean;
}

/**
 * Kubernetes API machinery on a key-value store. Every implementation passes
 * test/conformance/object-store.conformance.ts.
 *
 * - create assigns uid, resourceVersion, generation 1, creationTimestamp; AlreadyExistsError on a duplicate.
 * - update and updateStatus are conditional on metadata.resourceVersion: a stale one throws
 *   ConflictError and changes nothing. update ignores `status`; updateStatus changes only `status`;
 *   updateWithStatus is update and updateStatus in one write (one change, one resourceVersion).
 *   generation is bumped only when `spec` (or, for Secrets, `data`) changes.
 * - an update that leaves a deleting object with no finalizers removes it.
 * - delete sets deletionTimestamp when finalizers remain, else removes; removal garbage-collects
 *   dependents (ownerReferences uid) unless the policy is Orphan.
 * - every write is validated (DNS-1123 name, item size) before anything is written.
 */
export interface ObjectStore {
  create(obj: KubeObject): Promise<StoredObject>;
  get(key: ObjectKey): Promise<StoredObject | undefined>;
  update(obj: KubeObject): Promise<StoredObject>;
  updateStatus(obj: KubeObject): Promise<StoredObject>;
  /**
   * Metadata, spec and status in one conditional write: what a reconciler that changed its own
   * object's spec and status in one run writes (Cluster API's patch helper sends those as two
   * patches; one item write here). Not an API verb: the API keeps status a subresource.
   */
  updateWithStatus(obj: KubeObject): Promise<StoredObject>;
  delete(key: ObjectKey, options?: DeleteOptions): Promise<DeleteResult>;
  list(query: ListQuery): Promise<ListResult>;
  /**
   * Objects labelled cluster.x-k8s.io/cluster-name=clusterName in a namespace: of any kind, or
   * of the kinds given only (a narrower index read; kinds of one group in one read where the
   * store can, e.g. a cluster's Machines, MachineSets and MachineDeployments).
   */
  listByCluster(namespace: string, clusterName: string, kinds?: ClusterKinds): Promise<StoredObject[]>;
  /** Objects with an ownerReference to this uid, any kind. */
  listByOwner(ownerUid: string): Promise<StoredObject[]>;
}

/**
 * A store that also reports each successful write (the embedded stand-in for DynamoDB Streams).
 * Every listener is handed the same change: a listener reads it and never mutates it.
 */
export interface ChangeSource {
  onChange(listener: (change: ObjectChange) => void): () => void;
}

export type ChangeType = 'INSERT' | 'MODIFY' | 'REMOVE';

export interface ObjectChange {
  type: ChangeType;
  oldObject?: StoredObject;
  newObject?: StoredObject;
}

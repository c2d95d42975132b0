import { groupOf, LABEL_CLUSTER_NAME, type StoredObject } from '../contracts/object.js';

/**
 * The in-memory store's objects with the secondary indexes DynamoDB keeps (docs/adr/0001): by
 * kind, by namespace + cluster-name label, by owner uid; and by kind within a namespace, as a
 * namespaced list query reads it. Lists read one bucket instead of scanning every object, so a
 * fleet of thousands of clusters does not make each list O(all).
 */
export class IndexedObjects {
  private readonly objects = new Map<string, StoredObject>();
  private readonly byKind = new Map<string, Set<string>>();
  private readonly byNamespacedKind = new Map<string, Set<string>>();
  private readonly byCluster = new Map<string, Set<string>>();
  private readonly byOwner = new Map<string, Set<string>>();

  get(id: string): StoredObject | undefined {
    return this.objects.get(id);
  }

  get size(): number {
    return this.objects.size;
  }

  values(): IterableIterator<StoredObject> {
    return this.objects.values();
  }

  has(id: string): boolean {
    return this.objects.has(id);
  }

  set(id: string, obj: StoredObject): void {
    this.delete(id);
    this.objects.set(id, obj);
    for (const [index, bucket] of this.bucketsOf(obj)) add(index, bucket, id);
  }

  delete(id: string): void {
    const old = this.objects.get(id);
    if (!old) return;
    this.objects.delete(id);
    for (const [index, bucket] of this.bucketsOf(old)) remove(index, bucket, id);
  }

  ofKind(group: string, kind: string): StoredObject[] {
    return this.resolve(this.byKind.get(`${group}/${kind}`));
  }

  ofKindIn(group: string, kind: string, namespace: string): StoredObject[] {
    return this.resolve(this.byNamespacedKind.get(`${group}/${kind}/${namespace}`));
  }

  inCluster(namespace: string, clusterName: string): StoredObject[] {
    return this.resolve(this.byCluster.get(`${namespace}/${clusterName}`));
  }

  ownedBy(uid: string): StoredObject[] {
    return this.resolve(this.byOwner.get(uid));
  }

  private resolve(ids: Set<string> | undefined): StoredObject[] {
    const found: StoredObject[] = [];
    for (const id of ids ?? []) {
      const obj = this.objects.get(id);
      if (obj) found.push(obj);
    }
    return found;
  }

  private bucketsOf(obj: StoredObject): Array<[Map<string, Set<string>>, string]> {
    const kind = `${groupOf(obj.apiVersion)}/${obj.kind}`;
    const buckets: Array<[Map<string, Set<string>>, string]> = [
      [this.byKind, kind],
      [this.byNamespacedKind, `${kind}/${obj.metadata.namespace}`],
    ];
    const cluster = obj.metadata.labels?.[LABEL_CLUSTER_NAME];
    if (cluster !== undefined) buckets.push([this.byCluster, `${obj.metadata.namespace}/${cluster}`]);
    for (const uid of new Set((obj.metadata.ownerReferences ?? []).map((ref) => ref.uid))) buckets.push([this.byOwner, uid]);
    return buckets;
  }
}

function add(index: Map<string, Set<string>>, bucket: string, id: string): void {
  let ids = index.get(bucket);
  if (!ids) {
    ids = new Set();
    index.set(bucket, ids);
  }
  ids.add(id);
}

function remove(index: Map<string, Set<string>>, bucket: string, id: string): void {
  const ids = index.get(bucket);
  if (!ids) return;
  ids.delete(id);
  if (ids.size === 0) index.delete(bucket);
}


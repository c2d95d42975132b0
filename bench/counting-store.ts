import { type KubeObject, LABEL_CLUSTER_NAME, type ObjectKey, type StoredObject } from '../shared/contracts/object.js';
import type {
  ChangeSource,
  ClusterKinds,
  DeleteOptions,
  DeleteResult,
  ListQuery,
  ListResult,
  ObjectChange,
  ObjectStore,
} from '../shared/ports/object-store.js';
import { kindList } from '../shared/store/cluster-kinds.js';
import { ObjectSizes } from '../shared/store/object-sizes.js';

/** Store calls and their DynamoDB capacity-unit estimate, in total and per kind. */
export interface StoreCounts {
  /** get, list, listByCluster, listByOwner calls. */
  reads: number;
  /** create, update, updateStatus, updateWithStatus, delete calls. */
  writes: number;
  /** Estimated read request units: ceil(bytes returned / 4 KB), at least 1 per call. */
  readUnits: number;
  /** Estimated write request units: ceil(item bytes / 1 KB) for the table and each index holding the item. */
  writeUnits: number;
  readsByKind: Record<string, number>;
  writesByKind: Record<string, number>;
}

export function emptyStoreCounts(): StoreCounts {
  return { reads: 0, writes: 0, readUnits: 0, writeUnits: 0, readsByKind: {}, writesByKind: {} };
}

/** `after − before`, field by field. */
export function storeCountsDelta(after: StoreCounts, before: StoreCounts): StoreCounts {
  return {
    reads: after.reads - before.reads,
    writes: after.writes - before.writes,
    readUnits: after.readUnits - before.readUnits,
    writeUnits: after.writeUnits - before.writeUnits,
    readsByKind: subtract(after.readsByKind, before.readsByKind),
    writesByKind: subtract(after.writesByKind, before.writesByKind),
  };
}

function subtract(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const kind of new Set([...Object.keys(after), ...Object.keys(before)])) {
    const d = (after[kind] ?? 0) - (before[kind] ?? 0);
    if (d !== 0) out[kind] = d;
  }
  return out;
}

const READ_UNIT_BYTES = 4096;
const WRITE_UNIT_BYTES = 1024;

/**
 * A decorator over the store the control plane uses (API and reconcilers alike) that counts the
 * calls reaching it, per kind, and estimates the DynamoDB capacity units they would consume: the
 * table plus each index the item is projected into (byKind always, byOwner with an owner,
 * byCluster with the cluster-name label; docs/adr/0001). Changes pass through untouched.
 */
export class CountingStore implements ObjectStore, ChangeSource {
  private current: StoreCounts = emptyStoreCounts();
  private readonly sizes = new ObjectSizes();

  constructor(private readonly inner: ObjectStore & ChangeSource) {}

  /** A copy of the counts so far. */
  counts(): StoreCounts {
    return structuredClone(this.current);
  }

  onChange(listener: (change: ObjectChange) => void): () => void {
    return this.inner.onChange(listener);
  }

  /** Writes are counted when tried: a conditional write that fails still consumes capacity. */
  create(obj: KubeObject): Promise<StoredObject> {
    this.wrote(obj);
    return this.inner.create(obj);
  }

  async get(key: ObjectKey): Promise<StoredObject | undefined> {
    const found = await this.inner.get(key);
    this.read(key.kind, found ? [found] : []);
    return found;
  }

  update(obj: KubeObject): Promise<StoredObject> {
    this.wrote(obj);
    return this.inner.update(obj);
  }

  updateStatus(obj: KubeObject): Promise<StoredObject> {
    this.wrote(obj);
    return this.inner.updateStatus(obj);
  }

  updateWithStatus(obj: KubeObject): Promise<StoredObject> {
    this.wrote(obj);
    return this.inner.updateWithStatus(obj);
  }

  async delete(key: ObjectKey, options?: DeleteOptions): Promise<DeleteResult> {
    try {
      const result = await this.inner.delete(key, options);
      this.wrote(result.object);
      return result;
    } catch (error) {
      this.wrote({ apiVersion: '', kind: key.kind, metadata: { name: key.name, namespace: key.namespace } });
      throw error;
    }
  }

  async list(query: ListQuery): Promise<ListResult> {
    const result = await this.inner.list(query);
    this.read(query.kind, result.items);
    return result;
  }

  async listByCluster(namespace: string, clusterName: string, kinds?: ClusterKinds): Promise<StoredObject[]> {
    const items = await this.inner.listByCluster(namespace, clusterName, kinds);
    // The DynamoDB adapter makes one query per group of the kinds (ADR 0143): counted as such.
    const groups = new Set((kindList(kinds) ?? []).map((k) => k.group)).size;
    this.read('(byCluster)', items, Math.max(1, groups));
    return items;
  }

  async listByOwner(ownerUid: string): Promise<StoredObject[]> {
    const items = await this.inner.listByOwner(ownerUid);
    this.read('(byOwner)', items);
    return items;
  }

  private read(kind: string, items: readonly KubeObject[], queries = 1): void {
    const bytes = items.reduce((sum, item) => sum + this.sizes.bytesOf(item), 0);
    this.current.reads += queries;
    this.current.readUnits += Math.max(queries, Math.ceil(bytes / READ_UNIT_BYTES));
    this.current.readsByKind[kind] = (this.current.readsByKind[kind] ?? 0) + queries;
  }

  private wrote(obj: KubeObject): void {
    const units = Math.max(1, Math.ceil(JSON.stringify(obj).length / WRITE_UNIT_BYTES));
    this.current.writes++;
    this.current.writeUnits += units * (1 + indexesHolding(obj));
    this.current.writesByKind[obj.kind] = (this.current.writesByKind[obj.kind] ?? 0) + 1;
  }
}

function indexesHolding(obj: KubeObject): number {
  const byOwner = (obj.metadata.ownerReferences?.length ?? 0) > 0 ? 1 : 0;
  const byCluster = obj.metadata.labels?.[LABEL_CLUSTER_NAME] === undefined ? 0 : 1;
  return 1 + byOwner + byCluster;
}

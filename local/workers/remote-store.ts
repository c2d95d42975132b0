import type { KubeObject, ObjectKey, StoredObject } from '../../shared/contracts/object.js';
import type { ClusterKinds, DeleteOptions, DeleteResult, ListQuery, ListResult, ObjectStore } from '../../shared/ports/object-store.js';
import { deserializeError } from './error-codec.js';
import { type Channel, type SerializedError, type StoreMethod, storeResultSchemas } from './protocol.js';

interface Waiting {
  method: StoreMethod;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * The store a reconcile worker sees: every call goes to the dispatcher's store (ADR 0115), so the
 * API, the change feed, the benchmark's counting and fault wrappers and the workers all use one
 * store and its one change tap. Results are parsed on arrival; errors come back as their classes.
 */
export class RemoteObjectStore implements ObjectStore {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();

  constructor(private readonly channel: Channel) {}

  /** A storeResult or storeError from the dispatcher; false when the id is not one of ours. */
  settle(id: number, result: { json: string | undefined } | { error: SerializedError }): boolean {
    const waiting = this.waiting.get(id);
    if (!waiting) return false;
    this.waiting.delete(id);
    if ('error' in result) {
      waiting.reject(deserializeError(result.error));
      return true;
    }
    let value: unknown;
    try {
      value = result.json === undefined ? undefined : JSON.parse(result.json);
    } catch (error) {
      waiting.reject(new Error(`the dispatcher's ${waiting.method} answer is not JSON: ${String(error)}`));
      return true;
    }
    const parsed = storeResultSchemas[waiting.method].safeParse(value);
    if (parsed.success) waiting.resolve(parsed.data);
    else waiting.reject(new Error(`the dispatcher's ${waiting.method} answer is malformed: ${parsed.error.message}`));
    return true;
  }

  create(obj: KubeObject): Promise<StoredObject> {
    return this.call('create', [obj]);
  }
  get(key: ObjectKey): Promise<StoredObject | undefined> {
    return this.call('get', [key]);
  }
  update(obj: KubeObject): Promise<StoredObject> {
    return this.call('update', [obj]);
  }
  updateStatus(obj: KubeObject): Promise<StoredObject> {
    return this.call('updateStatus', [obj]);
  }
  updateWithStatus(obj: KubeObject): Promise<StoredObject> {
    return this.call('updateWithStatus', [obj]);
  }
  delete(key: ObjectKey, options?: DeleteOptions): Promise<DeleteResult> {
    return this.call('delete', options ? [key, options] : [key]);
  }
  list(query: ListQuery): Promise<ListResult> {
    return this.call('list', [query]);
  }
  listByCluster(namespace: string, clusterName: string, kinds?: ClusterKinds): Promise<StoredObject[]> {
    return this.call('listByCluster', kinds ? [namespace, clusterName, kinds] : [namespace, clusterName]);
  }
  listByOwner(ownerUid: string): Promise<StoredObject[]> {
    return this.call('listByOwner', [ownerUid]);
  }

  /** The result type is the method's own: settle() resolves only with what storeResultSchemas[method] parsed. */
  private call<M extends StoreMethod, T>(method: M, args: unknown[]): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { method, resolve: (value) => resolve(value as T), reject });
      this.channel.postMessage({ type: 'store', id, method, args });
    });
  }
}

import type { KubeObject, ObjectKey, StoredObject } from '../../shared/contracts/object.js';
import { ConflictError, TransientError } from '../../shared/errors/index.js';
import type { ClusterKinds, DeleteOptions, DeleteResult, ListQuery, ListResult, ObjectStore } from '../../shared/ports/object-store.js';
import type { FaultInjector } from './fault-plan.js';

/** What a reconciler sees when its process dies at a store call (Lambda: a crash or a timeout). */
export class InjectedCrash extends Error {
  constructor(where: string) {
    super(`injected crash ${where}`);
    this.name = 'InjectedCrash';
  }
}

type Fault = 'throttle' | 'condition' | 'crash-before' | 'crash-after';
const READ_FAULTS: readonly [Fault, ...Fault[]] = ['throttle', 'crash-before'];
const WRITE_FAULTS: readonly [Fault, ...Fault[]] = ['throttle', 'condition', 'crash-before', 'crash-after'];

/**
 * The store reconcilers see under `--faults`: each call may, with the plan's chance, be
 * throttled (DynamoDB's ProvisionedThroughputExceeded, surfaced as a TransientError after the
 * SDK's own retries), fail its condition (a ConflictError, as a stale resourceVersion does), or
 * crash the reconcile before the call or after the write took effect. Nothing else changes.
 */
export class FaultyStore implements ObjectStore {
  constructor(
    private readonly inner: ObjectStore,
    private readonly faults: FaultInjector,
  ) {}

  get(key: ObjectKey): Promise<StoredObject | undefined> {
    return this.read('get', () => this.inner.get(key));
  }
  list(query: ListQuery): Promise<ListResult> {
    return this.read('list', () => this.inner.list(query));
  }
  listByCluster(namespace: string, clusterName: string, kinds?: ClusterKinds): Promise<StoredObject[]> {
    return this.read('listByCluster', () => this.inner.listByCluster(namespace, clusterName, kinds));
  }
  listByOwner(ownerUid: string): Promise<StoredObject[]> {
    return this.read('listByOwner', () => this.inner.listByOwner(ownerUid));
  }
  create(obj: KubeObject): Promise<StoredObject> {
    return this.write('create', () => this.inner.create(obj));
  }
  update(obj: KubeObject): Promise<StoredObject> {
    return this.write('update', () => this.inner.update(obj));
  }
  updateStatus(obj: KubeObject): Promise<StoredObject> {
    return this.write('updateStatus', () => this.inner.updateStatus(obj));
  }
  updateWithStatus(obj: KubeObject): Promise<StoredObject> {
    return this.write('updateWithStatus', () => this.inner.updateWithStatus(obj));
  }
  delete(key: ObjectKey, options?: DeleteOptions): Promise<DeleteResult> {
    return this.write('delete', () => this.inner.delete(key, options));
  }

  private read<T>(op: string, call: () => Promise<T>): Promise<T> {
    return this.inject(op, READ_FAULTS, call);
  }

  private write<T>(op: string, call: () => Promise<T>): Promise<T> {
    return this.inject(op, WRITE_FAULTS, call);
  }

  private async inject<T>(op: string, faults: readonly [Fault, ...Fault[]], call: () => Promise<T>): Promise<T> {
    if (!this.faults.roll(this.faults.plan.storeCallFault)) return call();
    const counts = this.faults.counts;
    switch (this.faults.pick(faults)) {
      case 'throttle':
        counts.throttled++;
        throw new TransientError(`injected throttling on ${op} (ProvisionedThroughputExceededException)`);
      case 'condition':
        counts.conditionFailed++;
        throw new ConflictError(`injected conditional check failure on ${op}`);
      case 'crash-before':
        counts.crashedBeforeCall++;
        throw new InjectedCrash(`before ${op}`);
      case 'crash-after':
        await call();
        counts.crashedAfterWrite++;
        throw new InjectedCrash(`after ${op} took effect`);
    }
  }
}

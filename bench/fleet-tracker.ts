import { booleanAt, numberAt, stringAt } from '../shared/contracts/json.js';
import { keyString, type StoredObject } from '../shared/contracts/object.js';
import type { ChangeSource, ObjectChange } from '../shared/ports/object-store.js';

interface NamespaceState {
  objects: Map<string, StoredObject>;
  dirty: boolean;
  ready: boolean;
}

/**
 * Follows the store's change feed (never reads the store, so it adds nothing to the counts) and
 * knows, per benchmark namespace, which objects exist and whether the cluster is ready: every
 * expected Machine Running and the control plane initialized with readyReplicas = replicas.
 */
export class FleetTracker {
  private readonly namespaces = new Map<string, NamespaceState>();
  private readonly uids = new Set<string>();
  private readonly uidsByKind = new Map<string, Set<string>>();
  private readonly unsubscribe: () => void;

  constructor(
    source: ChangeSource,
    private readonly namespacePrefix: string,
    private readonly expectedMachines: number,
  ) {
    this.unsubscribe = source.onChange((change) => this.observe(change));
  }

  stop(): void {
    this.unsubscribe();
  }

  /** Objects ever created in benchmark namespaces. */
  objectsSeen(): number {
    return this.uids.size;
  }

  /** Objects of one kind ever created in benchmark namespaces. */
  objectsSeenOfKind(kind: string): number {
    return this.uidsByKind.get(kind)?.size ?? 0;
  }

  /** Kinds seen, with how many objects of each. */
  kindsSeen(): Record<string, number> {
    return Object.fromEntries([...this.uidsByKind].map(([kind, uids]) => [kind, uids.size]));
  }

  readyClusters(): number {
    let ready = 0;
    for (const state of this.namespaces.values()) {
      if (state.dirty) {
        state.ready = clusterReady([...state.objects.values()], this.expectedMachines);
        state.dirty = false;
      }
      if (state.ready) ready++;
    }
    return ready;
  }

  /** Objects in benchmark namespaces right now. */
  liveObjects(): number {
    let live = 0;
    for (const state of this.namespaces.values()) live += state.objects.size;
    return live;
  }

  private observe(change: ObjectChange): void {
    const object = change.newObject ?? change.oldObject;
    const namespace = object?.metadata.namespace;
    if (!object || !namespace?.startsWith(this.namespacePrefix)) return;
    let state = this.namespaces.get(namespace);
    if (!state) {
      state = { objects: new Map(), dirty: true, ready: false };
      this.namespaces.set(namespace, state);
    }
    state.dirty = true;
    const key = keyString({ group: '', kind: object.kind, namespace, name: object.metadata.name });
    if (change.type === 'REMOVE' || !change.newObject) {
      state.objects.delete(key);
      return;
    }
    state.objects.set(key, change.newObject);
    this.uids.add(change.newObject.metadata.uid);
    let ofKind = this.uidsByKind.get(object.kind);
    if (!ofKind) {
      ofKind = new Set();
      this.uidsByKind.set(object.kind, ofKind);
    }
    ofKind.add(change.newObject.metadata.uid);
  }
}

/** Every expected Machine Running; the KubeadmControlPlane initialized with readyReplicas = replicas. */
export function clusterReady(objects: readonly StoredObject[], expectedMachines: number): boolean {
  const machines = objects.filter((o) => o.kind === 'Machine');
  if (machines.length !== expectedMachines) return false;
  if (!machines.every((m) => stringAt(m, 'status', 'phase') === 'Running' && !m.metadata.deletionTimestamp)) return false;
  const controlPlane = objects.find((o) => o.kind === 'KubeadmControlPlane');
  if (!controlPlane) return false;
  const replicas = numberAt(controlPlane, 'spec', 'replicas');
  const initialized =
    booleanAt(controlPlane, 'status', 'initialization', 'controlPlaneInitialized') === true ||
    booleanAt(controlPlane, 'status', 'initialized') === true;
  return initialized && replicas !== undefined && numberAt(controlPlane, 'status', 'readyReplicas') === replicas;
}

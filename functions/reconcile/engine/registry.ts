import { type GroupKind, groupKindString } from '../../../shared/contracts/object.js';
import { withClusterPauseWatch } from './skeleton/pause.js';
import type { AnyReconciler } from './skeleton/types.js';

/**
 * The reconcilers this deployment runs, one per kind. Composition (which kinds exist) happens
 * where the process is wired; the router, the queues and resync only read from here.
 */
export class ReconcilerRegistry {
  private readonly byKind = new Map<string, AnyReconciler>();

  constructor(definitions: readonly AnyReconciler[] = []) {
    for (const definition of definitions) this.register(definition);
  }

  /**
   * Adds a reconciler, with the watch that wakes it when its Cluster is paused or unpaused (ADR
   * 0146); a second one for the same kind is a wiring mistake and throws.
   */
  register(definition: AnyReconciler): void {
    const id = groupKindString(definition.kind);
    if (this.byKind.has(id)) throw new Error(`a reconciler for ${id} is already registered`);
    this.byKind.set(id, withClusterPauseWatch(definition));
  }

  get(gk: GroupKind): AnyReconciler | undefined {
    return this.byKind.get(groupKindString(gk));
  }

  all(): AnyReconciler[] {
    return [...this.byKind.values()];
  }
}

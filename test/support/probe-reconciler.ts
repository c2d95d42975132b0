import { keyString, type ObjectKey, type StoredObject } from '../../shared/contracts/object.js';
import type { AnyReconciler, PhaseResult, Scope } from '../../functions/reconcile/engine/skeleton/types.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';

export const WIDGET = { group: 'test.capless.io', kind: 'Widget' } as const;
export const WIDGET_API_VERSION = 'test.capless.io/v1';

export function widgetKey(name: string, namespace = 'default'): ObjectKey {
  return { ...WIDGET, namespace, name };
}

export function widget(name: string, namespace = 'default') {
  return { apiVersion: WIDGET_API_VERSION, kind: WIDGET.kind, metadata: { name, namespace }, spec: { size: 1 } };
}

/**
 * What a probe run does: return a phase result, or throw. `run` counts from 1 per object; `store`
 * is the store as this run sees it (reads through it are the run's reads).
 */
export type ProbeBehaviour = (name: string, run: number, store: ObjectStore) => Promise<PhaseResult | undefined> | PhaseResult | undefined;

/**
 * A reconciler for the test kind Widget that records every run: how many per object, and the
 * most runs of one object that were ever in progress at once.
 */
export class Probe {
  behaviour: ProbeBehaviour = () => undefined;
  private readonly counts = new Map<string, number>();
  private readonly active = new Map<string, number>();
  private maxActive = 0;

  runs(name: string): number {
    return this.counts.get(name) ?? 0;
  }

  /** The highest number of simultaneous runs of any one object. */
  maxConcurrentPerObject(): number {
    return this.maxActive;
  }

  reconciler(): AnyReconciler {
    return {
      kind: WIDGET,
      watches: [],
      createScope: (ctx, object): Scope => ({ ctx, object, conditions: [] }),
      phases: [(scope: Scope) => this.run(scope.object, scope.ctx.store)],
      deletePhases: [],
      computeStatus: () => ({ fields: { probed: true } }),
    };
  }

  private async run(object: StoredObject, store: ObjectStore): Promise<PhaseResult | undefined> {
    const name = object.metadata.name;
    const id = keyString(widgetKey(name, object.metadata.namespace));
    const run = (this.counts.get(name) ?? 0) + 1;
    this.counts.set(name, run);
    const active = (this.active.get(id) ?? 0) + 1;
    this.active.set(id, active);
    this.maxActive = Math.max(this.maxActive, active);
    try {
      return await this.behaviour(name, run, store);
    } finally {
      this.active.set(id, (this.active.get(id) ?? 1) - 1);
    }
  }
}

/** A promise the test resolves by hand. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

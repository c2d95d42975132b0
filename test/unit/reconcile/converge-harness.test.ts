import { describe, expect, it } from 'vitest';
import type { AnyReconciler, PhaseResult, Scope } from '../../../functions/reconcile/engine/skeleton/types.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import { converge } from '../../support/converge.js';
import { FakeClock } from '../../support/fake-clock.js';

const GROUP = 'test.capless.io';

/** A reconciler whose only phase is `phase`, over kind Widget. */
function widgetReconciler(phase: (s: Scope) => PhaseResult | Promise<PhaseResult>, status: (s: Scope) => Record<string, unknown> = () => ({})): AnyReconciler {
  return {
    kind: { group: GROUP, kind: 'Widget' },
    watches: [],
    createScope: (ctx, object) => ({ ctx, object, conditions: [] }),
    phases: [phase],
    deletePhases: [],
    computeStatus: (s) => ({ fields: status(s) }),
  };
}

async function storeWithWidget(clock: FakeClock): Promise<MemoryObjectStore> {
  const store = new MemoryObjectStore({ clock });
  await store.create({ apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name: 'w' }, spec: {} });
  return store;
}

describe('converge', () => {
  it('jumps the fake clock to a requeue and stops once nothing changes', async () => {
    const clock = new FakeClock();
    const store = await storeWithWidget(clock);
    const start = clock.now().getTime();
    const ready = (s: Scope) => s.ctx.clock.now().getTime() - start >= 10_000;
    const reconciler = widgetReconciler(
      (s) => (ready(s) ? {} : { requeueAfterSeconds: 10 }),
      (s) => ({ ready: ready(s) }),
    );
    const stats = await converge({ reconcilers: () => [reconciler] }, store, { clock });
    expect(stats).toMatchObject({ converged: true, elapsedSeconds: 10, errors: [] });
    expect((await store.list({ group: GROUP, kind: 'Widget' })).items[0]?.status).toMatchObject({ ready: true });
  });

  it('stops at maxRounds when something writes every round', async () => {
    const clock = new FakeClock();
    const store = await storeWithWidget(clock);
    let n = 0;
    const reconciler = widgetReconciler(() => ({}), () => ({ n: n++ }));
    const stats = await converge({ reconcilers: () => [reconciler] }, store, { clock, maxRounds: 5 });
    expect(stats).toMatchObject({ converged: false, rounds: 5 });
  });

  it('collects reconcile errors instead of throwing', async () => {
    const clock = new FakeClock();
    const store = await storeWithWidget(clock);
    const reconciler = widgetReconciler(() => {
      throw new Error('boom');
    });
    const stats = await converge({ reconcilers: () => [reconciler] }, store, { clock, maxRounds: 3 });
    expect(stats.errors.length).toBeGreaterThan(0);
    expect(String(stats.errors[0]?.error)).toContain('boom');
  });
});

import { describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../functions/reconcile/engine/providers/builtin.js';
import { RECONCILED_KINDS, reconcileKindKey } from '../../lib/stacks/reconciled-kinds.js';

describe('the stack reconciles exactly the kinds the built-in providers bring reconcilers for', () => {
  it('one queue and function per registered reconciler, none without one', () => {
    const registered = builtinProviderRegistry()
      .reconcilers()
      .map((r) => reconcileKindKey(r.kind))
      .sort();
    expect(RECONCILED_KINDS.map(reconcileKindKey).sort()).toEqual(registered);
  });
});

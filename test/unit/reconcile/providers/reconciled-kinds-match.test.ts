/** The CDK's reconciled kinds (one queue and function each) are exactly the kinds the built-in providers reconcile. */

import { describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { RECONCILED_KINDS } from '../../../../lib/stacks/reconciled-kinds.js';

describe('RECONCILED_KINDS', () => {
  it('names every kind a built-in reconciler is registered for, and no other', () => {
    const registered = builtinProviderRegistry()
      .reconcilers()
      .map((r) => `${r.kind.group}/${r.kind.kind}`)
      .sort();
    expect(RECONCILED_KINDS.map((k) => `${k.group}/${k.kind}`).sort()).toEqual(registered);
  });

  it('includes ExtensionConfig (Runtime SDK discovery; reads the CA Secret of inject-ca-from-secret)', () => {
    expect(RECONCILED_KINDS).toContainEqual({ group: 'runtime.cluster.x-k8s.io', kind: 'ExtensionConfig', needsSecrets: true });
  });
});

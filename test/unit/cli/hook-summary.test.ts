import { describe, expect, it } from 'vitest';
import { hookSummary } from '../../../cli/output/hook-summary.js';

const cluster = (annotations: Record<string, string>, conditions: unknown[] = []) => ({ metadata: { name: 'c', annotations }, status: { conditions } });

describe('hookSummary (capless describe cluster)', () => {
  it.each<[string, unknown, string]>([
    ['nothing to say', cluster({}), ''],
    ['pending hooks', cluster({ 'runtime.cluster.x-k8s.io/pending-hooks': 'AfterClusterUpgrade,AfterControlPlaneUpgrade' }), 'Pending lifecycle hooks: AfterClusterUpgrade, AfterControlPlaneUpgrade\n'],
    ['ok-to-delete', cluster({ 'runtime.cluster.x-k8s.io/ok-to-delete': '' }), 'BeforeClusterDelete passed (ok-to-delete)\n'],
    [
      'blocking hooks from TopologyReconciled',
      cluster({}, [{ type: 'TopologyReconciled', status: 'False', reason: 'ClusterUpgrading', message: 'Following hooks are blocking upgrade: BeforeClusterUpgrade: wait' }]),
      'Blocking (ClusterUpgrading): Following hooks are blocking upgrade: BeforeClusterUpgrade: wait\n',
    ],
    ['a TopologyReconciled failure that names no hook', cluster({}, [{ type: 'TopologyReconciled', status: 'False', reason: 'ReconcileFailed', message: 'boom' }]), ''],
  ])('%s', (_name, object, text) => {
    expect(hookSummary(object)).toBe(text);
  });
});

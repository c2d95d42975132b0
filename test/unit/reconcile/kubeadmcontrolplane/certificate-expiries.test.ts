/**
 * When a control plane looks again for certificates coming due (rollout.before.certificatesExpiryDays),
 * and on which port it reads a Node's kube-apiserver certificate.
 */
import { describe, it } from 'vitest';
import { apiServerPortOf, secondsUntilCertificatesRollout } from '../../../../functions/reconcile/kubeadm/controlplane/certificate-expiries.js';
import { createKcpScope } from '../../../../functions/reconcile/kubeadm/controlplane/scope.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import { FakeClock } from '../../../support/fake-clock.js';
import { testContext } from '../../../support/reconcile-context.js';

const meta = (name: string) => ({ name, namespace: 'default', uid: name, resourceVersion: '1', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z' });
const kcp = (days?: number): StoredObject => ({
  apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
  kind: 'KubeadmControlPlane',
  metadata: meta('cp'),
  spec: { version: 'v1.31.0', ...(days ? { rollout: { before: { certificatesExpiryDays: days } } } : {}) },
});
const machine = (name: string, expiry?: string, deleting = false): StoredObject => ({
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'Machine',
  metadata: { ...meta(name), ...(deleting ? { deletionTimestamp: '2026-06-01T00:00:00Z' } : {}) },
  status: expiry ? { certificatesExpiryDate: expiry } : {},
});

describe('secondsUntilCertificatesRollout', () => {
  it.for([
    ['no certificatesExpiryDays: no requeue', undefined, [machine('a', '2026-07-01T00:00:00Z')], [], undefined],
    ['a second past the first Machine coming due', 21, [machine('a', '2026-07-01T00:00:00Z'), machine('b', '2026-08-01T00:00:00Z')], [], (30 - 21) * 86_400 + 1],
    ['an expiry just recorded counts before its Machine reports it', 21, [machine('a')], ['2026-06-23T00:00:00Z'], 86_400 + 1],
    ['already due: no requeue (the rollout is under way)', 21, [machine('a', '2026-06-10T00:00:00Z')], [], undefined],
    ['a deleting Machine does not count', 21, [machine('a', '2026-07-01T00:00:00Z', true)], [], undefined],
  ] as const)('%s', ([, days, machines, recorded, expected], context) => {
    const ctx = testContext({ clock: new FakeClock('2026-06-01T00:00:00Z') });
    const scope = createKcpScope(ctx, kcp(days));
    scope.machines = [...machines];
    context.expect(secondsUntilCertificatesRollout(scope, recorded)).toBe(expected);
  });
});

describe('apiServerPortOf (calculateAPIServerPort)', () => {
  it.for([
    ['init configuration', { initConfiguration: { localAPIEndpoint: { bindPort: 7443 } } }, 7443],
    ['join configuration', { joinConfiguration: { controlPlane: { localAPIEndpoint: { bindPort: 8443 } } } }, 8443],
    ["kubeadm's default", {}, 6443],
  ] as const)('%s', ([, spec, port], context) => {
    context.expect(apiServerPortOf({ apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'KubeadmConfig', metadata: meta('c'), spec })).toBe(port);
  });
});

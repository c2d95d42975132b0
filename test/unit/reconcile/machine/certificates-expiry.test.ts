/**
 * A control-plane Machine reports when its certificates expire (Cluster API's
 * reconcileCertificateExpiry): its own `machine.cluster.x-k8s.io/certificates-expiry`
 * annotation first, then its bootstrap config's.
 */
import { describe, it } from 'vitest';
import { certificatesExpiryOf } from '../../../../functions/reconcile/core/machine/certificates-expiry.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';

const KEY = 'machine.cluster.x-k8s.io/certificates-expiry';

const object = (kind: string, name: string, labels: Record<string, string>, annotations: Record<string, string>): StoredObject => ({
  apiVersion: 'v1',
  kind,
  metadata: { name, namespace: 'default', uid: name, resourceVersion: '1', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z', labels, annotations },
});
const cp = (annotations: Record<string, string> = {}) => object('Machine', 'cp-1', { 'cluster.x-k8s.io/control-plane': '' }, annotations);
const config = (annotations: Record<string, string> = {}) => object('KubeadmConfig', 'cp-1-config', {}, annotations);

describe('certificatesExpiryOf', () => {
  it.for([
    ['from the bootstrap config', cp(), config({ [KEY]: '2027-01-01T00:00:00Z' }), { date: '2027-01-01T00:00:00Z' }],
    ["the Machine's own annotation wins", cp({ [KEY]: '2026-12-24T10:00:00+02:00' }), config({ [KEY]: '2027-01-01T00:00:00Z' }), { date: '2026-12-24T08:00:00Z' }],
    ['none anywhere: none', cp(), config(), {}],
    ['no bootstrap config read: none', cp(), undefined, {}],
    ['a worker has none', object('Machine', 'w-1', {}, { [KEY]: '2027-01-01T00:00:00Z' }), undefined, {}],
    ['not a time: refused with where it came from', cp(), config({ [KEY]: 'next year' }), { invalid: 'next year', source: 'KubeadmConfig cp-1-config' }],
  ] as const)('%s', ([, machine, bootstrap, expected], context) => {
    context.expect(certificatesExpiryOf(machine, bootstrap)).toEqual(expected);
  });
});

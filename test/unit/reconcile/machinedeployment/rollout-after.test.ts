/**
 * Which MachineSet carries a MachineDeployment's intent (Cluster API's
 * mdutil.FindNewAndOldMachineSets): of its template when only in-place fields differ, and under
 * `spec.rollout.after` made at or after it. The rows follow its cases.
 */

import { describe, expect, it } from 'vitest';
import { templateHash } from '../../../../functions/reconcile/core/machinedeployment/machineset-factory.js';
import { intendedMachineSet, rolloutHash } from '../../../../functions/reconcile/core/machinedeployment/rollout-after.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const INFRA = { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachineTemplate', name: 'w' };
const MACHINE_SPEC = { clusterName: 'c1', version: 'v1.32.0', infrastructureRef: INFRA, bootstrap: { dataSecretName: 's' } };

function deployment(after?: string, spec: Record<string, unknown> = MACHINE_SPEC): StoredObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineDeployment',
    metadata: { name: 'md', namespace: 'default', uid: 'md', resourceVersion: '1', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { clusterName: 'c1', template: { spec }, ...(after === undefined ? {} : { rollout: { after } }) },
  };
}

const T = templateHash(deployment());

function set(name: string, hash: string, created: string, replicas: number, deleting = false, spec: Record<string, unknown> = MACHINE_SPEC): StoredObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineSet',
    metadata: {
      name,
      namespace: 'default',
      uid: name,
      resourceVersion: '1',
      generation: 1,
      creationTimestamp: created,
      labels: { 'machine-template-hash': hash },
      ...(deleting ? { deletionTimestamp: '2026-06-01T11:00:00Z', finalizers: ['f'] } : {}),
    },
    spec: { replicas, template: { spec } },
  };
}

const PAST = '2026-06-01T11:30:00Z';
const AHEAD = '2026-06-01T12:10:00Z';
const old = set('old', T, '2026-05-01T00:00:00Z', 3);
const restarted = set('restarted', rolloutHash(T, '2026-05-20T00:00:00Z'), '2026-05-20T00:00:01Z', 3);
const fresh = set('fresh', T, '2026-06-01T11:45:00Z', 1);
const otherTemplate = set('other', 'bbbbbbbbbb', '2026-06-01T11:50:00Z', 2, false, { ...MACHINE_SPEC, version: 'v1.31.0' });
/** Differs in in-place fields only: still of the template. */
const drainTimeout = set('drain', 'cccccccccc', '2026-05-02T00:00:00Z', 2, false, { ...MACHINE_SPEC, minReadySeconds: 30, deletion: { nodeDrainTimeoutSeconds: 60 }, taints: [{ key: 'k', effect: 'NoSchedule' }] });

describe('intendedMachineSet', () => {
  it.each<[string, string | undefined, StoredObject[], string, number | undefined]>([
    ['no rollout.after: the set of the template', undefined, [old, otherTemplate], T, undefined],
    ['no set of the template yet: a new one with the template hash', undefined, [otherTemplate], T, undefined],
    ['rollout.after ahead: the set of the template stays, run again when it comes', AHEAD, [old], T, 600],
    ['rollout.after ahead: a set made by an earlier rollout.after is of the template too', AHEAD, [restarted], restarted.metadata.labels?.['machine-template-hash'] ?? '', 600],
    ['rollout.after passed, every set older: a new one for that time', PAST, [old, otherTemplate], rolloutHash(T, PAST), undefined],
    ['rollout.after passed, a set of the template made since: that one', PAST, [old, fresh], T, undefined],
    ['the set with most replicas among the candidates', undefined, [fresh, old], T, undefined],
    ['a set being deleted is no candidate', PAST, [set('gone', T, '2026-06-01T11:50:00Z', 1, true), old], rolloutHash(T, PAST), undefined],
    ['a rollout.after that is no time is ignored', 'soon', [old], T, undefined],
    ['a set that differs in in-place fields only is of the template', undefined, [drainTimeout, otherTemplate], 'cccccccccc', undefined],
    ['an empty failure domain is none', undefined, [set('fd', 'dddddddddd', PAST, 1, false, { ...MACHINE_SPEC, failureDomain: '' })], 'dddddddddd', undefined],
    ['another bootstrap reference is another template', undefined, [set('b', 'eeeeeeeeee', PAST, 1, false, { ...MACHINE_SPEC, bootstrap: { dataSecretName: 'other' } })], T, undefined],
  ])('%s', (_case, after, sets, hash, requeue) => {
    const intended = intendedMachineSet(deployment(after), sets, NOW);
    expect(intended).toEqual({ hash, ...(requeue === undefined ? {} : { requeueAfterSeconds: requeue }) });
  });

  it('a restart label is the template hash and five characters of the time, a label value of its own', () => {
    expect(rolloutHash(T, PAST)).toMatch(/^[0-9a-f]{10}-[0-9a-f]{5}$/);
    expect(rolloutHash(T, PAST)).not.toBe(rolloutHash(T, AHEAD));
  });
});

/**
 * Which volumes a deleted Machine still waits for after the drain (Cluster API's
 * getPersistentVolumesWaitingForDetach), and the condition message it shows meanwhile.
 */
import { describe, expect, it } from 'vitest';
import { attachmentWithoutVolume, noVolumesLeft, volumeDetachMessage, volumesWaitedFor } from '../../../../../functions/reconcile/core/machine/drain/volume-detach.js';
import type { WorkloadPersistentVolume } from '../../../../../shared/ports/workload-cluster.js';

const claimed = (name: string, handle: string, claim: string): WorkloadPersistentVolume => ({
  name,
  csi: { driver: 'ebs.csi.aws.com', volumeHandle: handle },
  claimRef: { kind: 'PersistentVolumeClaim', namespace: 'default', name: claim },
});
const csiName = (handle: string) => `kubernetes.io/csi/ebs.csi.aws.com^${handle}`;

describe('volumesWaitedFor', () => {
  it.for([
    ['nothing attached: nothing to wait for', [], [], [], {}],
    ['a volume the Node reports is waited for by its claim', [csiName('vol-1')], [], [claimed('pv-1', 'vol-1', 'data')], { persistentVolumeClaims: ['default/data'] }],
    ['a volume a VolumeAttachment names is waited for by its claim', [], [{ name: 'va', persistentVolumeName: 'pv-2' }], [claimed('pv-2', 'vol-2', 'logs')], { persistentVolumeClaims: ['default/logs'] }],
    ['the claim of a Pod the drain left is not waited for', [csiName('vol-1')], [], [claimed('pv-1', 'vol-1', 'skipped')], {}],
    ['a volume bound to no claim is waited for by its name', [], [{ name: 'va', persistentVolumeName: 'pv-3' }], [{ name: 'pv-3' }], { persistentVolumesWithoutClaim: ['pv-3'] }],
    ['what matches no PersistentVolume is waited for as it is', [csiName('vol-9')], [{ name: 'va', persistentVolumeName: 'pv-gone' }], [claimed('pv-1', 'vol-1', 'data')], { nodeVolumeNamesWithoutPV: [csiName('vol-9')], persistentVolumeNamesWithoutPV: ['pv-gone'] }],
    ['volumes neither the Node nor an attachment names are not waited for', [], [], [claimed('pv-1', 'vol-1', 'data')], {}],
  ] as const)('%s', ([, nodeVolumeNames, attachments, volumes, expected], context) => {
    const waited = volumesWaitedFor({ nodeVolumeNames, attachments, volumes, claimsToIgnore: new Set(['default/skipped']) });
    context.expect(waited).toEqual({ persistentVolumeClaims: [], persistentVolumesWithoutClaim: [], nodeVolumeNamesWithoutPV: [], persistentVolumeNamesWithoutPV: [], ...expected });
    context.expect(noVolumesLeft(waited)).toBe(Object.keys(expected).length === 0);
  });

  it('an attachment without a PersistentVolume is named as the reason', () => {
    expect(attachmentWithoutVolume([{ name: 'ok', persistentVolumeName: 'pv' }, { name: 'inline' }])).toBe('spec.source.persistentVolumeName for VolumeAttachment inline is not set');
    expect(attachmentWithoutVolume([{ name: 'ok', persistentVolumeName: 'pv' }])).toBeUndefined();
  });

  it('the message lists each kind of volume sorted, five at most', () => {
    const claims = ['f', 'e', 'd', 'c', 'b', 'a'].map((c) => `default/${c}`);
    const message = volumeDetachMessage({ persistentVolumeClaims: claims, persistentVolumesWithoutClaim: ['pv-3'], nodeVolumeNamesWithoutPV: [], persistentVolumeNamesWithoutPV: [] }, '2026-12-03T10:00:00Z');
    expect(message).toBe(
      [
        'Waiting for Node volumes to be detached (started at 2026-12-03T10:00:00Z)',
        '* PersistentVolumeClaims: default/a, default/b, default/c, default/d, default/e, ... (1 more)',
        '* PersistentVolumes without a .spec.claimRef to a PersistentVolumeClaim: pv-3',
      ].join('\n'),
    );
  });
});

/**
 * After the drain, a deleted Machine waits for its Node's volumes to detach before its
 * infrastructure goes (Cluster API's shouldWaitForNodeVolumes), so a storage provider does not
 * lose a volume still attached to an instance being terminated; when node-steps.ts allows it (not
 * with `machine.cluster.x-k8s.io/exclude-wait-for-node-volume-detach`, not past
 * `nodeVolumeDetachTimeoutSeconds` since `status.deletion.waitForNodeVolumeDetachStartTime`). A
 * Node that is gone or unreachable (Ready Unknown: nothing will detach) is not waited for.
 * Volumes used by Pods the drain left (Skip) are not waited for (drain/volume-detach.ts).
 */
import { ANNOTATION_EXCLUDE_WAIT_FOR_NODE_VOLUME_DETACH } from '../../../../shared/contracts/object.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { drainTargetOf } from './drain-phase.js';
import { isUnreachable, judgePods } from './drain/drain-node.js';
import { attachmentWithoutVolume, noVolumesLeft, volumeDetachMessage, volumesWaitedFor } from './drain/volume-detach.js';
import { type NodeStep, beginNodeStep, errorText, waitOnNode } from './node-steps.js';
import type { MachineScope } from './scope.js';

export const VOLUME_DETACH_STEP: NodeStep = {
  excludeAnnotation: ANNOTATION_EXCLUDE_WAIT_FOR_NODE_VOLUME_DETACH,
  timeoutField: 'nodeVolumeDetachTimeoutSeconds',
  startTimeField: 'waitForNodeVolumeDetachStartTime',
};
const WAITING = 'WaitingForVolumeDetach';

export async function waitForVolumeDetachPhase(s: MachineScope): Promise<PhaseResult> {
  const step = await beginNodeStep(s, VOLUME_DETACH_STEP);
  if (!step) return {};
  try {
    const node = await s.workloadCluster.findNodeByProviderID(step.cluster, step.providerID);
    if (!node || isUnreachable(node)) return {};
    const attachments = await s.workloadCluster.listVolumeAttachments(step.cluster, node.name);
    const nodeVolumeNames = node.volumesAttached ?? [];
    if (attachments.length === 0 && nodeVolumeNames.length === 0) return {};
    const unnamed = attachmentWithoutVolume(attachments);
    if (unnamed) return waitOnNode(s, WAITING, `Error waiting for volumes to be detached from Node ${node.name}: ${unnamed}`);

    const pods = await s.workloadCluster.listPodsOnNode(step.cluster, node.name);
    const judged = await judgePods(s.workloadCluster, await drainTargetOf(s, step.cluster, node), pods, s.ctx.clock.now(), false);
    if ('failed' in judged) return waitOnNode(s, WAITING, `Error waiting for volumes to be detached from Node ${node.name}: failed to find PersistentVolumeClaims from Pods ignored during drain: ${judged.failed}`);
    const claimsToIgnore = new Set(judged.items.filter((i) => i.status.behavior === 'Skip').flatMap((i) => i.pod.persistentVolumeClaims.map((claim) => `${i.pod.namespace}/${claim}`)));

    const volumes = await s.workloadCluster.listPersistentVolumes(step.cluster);
    const waited = volumesWaitedFor({ nodeVolumeNames, attachments, volumes, claimsToIgnore });
    return noVolumesLeft(waited) ? {} : waitOnNode(s, WAITING, volumeDetachMessage(waited, step.startedAt));
  } catch (error) {
    return waitOnNode(s, WAITING, `Error waiting for volumes to be detached from Node: ${errorText(error)}`);
  }
}

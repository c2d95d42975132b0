/**
 * Which of a drained Node's volumes a deleted Machine still waits for (Cluster API's
 * getAttachedVolumeInformation and getPersistentVolumesWaitingForDetach): the volumes the Node
 * reports attached (`kubernetes.io/csi/<driver>^<handle>`) and those its VolumeAttachments name,
 * matched to PersistentVolumes; a matched volume is waited for by its claim (`namespace/name`),
 * unless a Pod the drain left on the Node (Skip) uses that claim; one bound to no claim by its own
 * name; what matches no PersistentVolume is waited for as it is.
 */
import type { WorkloadPersistentVolume, WorkloadVolumeAttachment } from '../../../../../shared/ports/workload-cluster.js';
import { goOrder } from './evictions.js';

export interface AttachedVolumes {
  persistentVolumeClaims: string[];
  persistentVolumesWithoutClaim: string[];
  nodeVolumeNamesWithoutPV: string[];
  persistentVolumeNamesWithoutPV: string[];
}

export interface VolumeFacts {
  /** Node.status.volumesAttached[].name. */
  nodeVolumeNames: readonly string[];
  /** The VolumeAttachments attached to the Node. */
  attachments: readonly WorkloadVolumeAttachment[];
  volumes: readonly WorkloadPersistentVolume[];
  /** `namespace/claim` of the claims the Pods left on the Node use. */
  claimsToIgnore: ReadonlySet<string>;
}

const goSorted = (values: Iterable<string>) => [...values].sort(goOrder);

/** A VolumeAttachment without a PersistentVolume cannot be matched: Cluster API refuses to go on. */
export function attachmentWithoutVolume(attachments: readonly WorkloadVolumeAttachment[]): string | undefined {
  const bad = attachments.find((va) => !va.persistentVolumeName);
  return bad && `spec.source.persistentVolumeName for VolumeAttachment ${bad.name} is not set`;
}

export function volumesWaitedFor(facts: VolumeFacts): AttachedVolumes {
  const nodeNames = new Set(facts.nodeVolumeNames);
  const pvNames = new Set(facts.attachments.flatMap((va) => va.persistentVolumeName ?? []));
  const foundNodeNames = new Set<string>();
  const foundPVNames = new Set<string>();
  const claims = new Set<string>();
  const withoutClaim: string[] = [];
  for (const pv of facts.volumes) {
    const nodeName = pv.csi ? `kubernetes.io/csi/${pv.csi.driver}^${pv.csi.volumeHandle}` : undefined;
    const byNode = nodeName !== undefined && nodeNames.has(nodeName);
    if (byNode) foundNodeNames.add(nodeName);
    const byAttachment = pvNames.has(pv.name);
    if (byAttachment) foundPVNames.add(pv.name);
    if (!byNode && !byAttachment) continue;
    if (pv.claimRef?.kind !== 'PersistentVolumeClaim') withoutClaim.push(pv.name);
    else claims.add(`${pv.claimRef.namespace ?? ''}/${pv.claimRef.name ?? ''}`);
  }
  return {
    persistentVolumeClaims: goSorted([...claims].filter((claim) => !facts.claimsToIgnore.has(claim))),
    persistentVolumesWithoutClaim: goSorted(withoutClaim),
    nodeVolumeNamesWithoutPV: goSorted([...nodeNames].filter((name) => !foundNodeNames.has(name))),
    persistentVolumeNamesWithoutPV: goSorted([...pvNames].filter((name) => !foundPVNames.has(name))),
  };
}

export function noVolumesLeft(volumes: AttachedVolumes): boolean {
  return Object.values(volumes).every((list) => list.length === 0);
}

/** clog.StringListToString: five, then how many more. */
function fiveOf(values: readonly string[]): string {
  return [...values.slice(0, 5), ...(values.length > 5 ? [`... (${values.length - 5} more)`] : [])].join(', ');
}

const LINES: ReadonlyArray<readonly [keyof AttachedVolumes, string]> = [
  ['persistentVolumeClaims', 'PersistentVolumeClaims'],
  ['persistentVolumesWithoutClaim', 'PersistentVolumes without a .spec.claimRef to a PersistentVolumeClaim'],
  ['nodeVolumeNamesWithoutPV', 'Node with .status.volumesAttached entries not matching a PersistentVolume'],
  ['persistentVolumeNamesWithoutPV', 'VolumeAttachment with .spec.source.persistentVolumeName not matching a PersistentVolume'],
];

/** The Deleting condition's message while volumes are attached. */
export function volumeDetachMessage(volumes: AttachedVolumes, startedAt: string): string {
  const lines = LINES.filter(([key]) => volumes[key].length > 0).map(([key, label]) => `* ${label}: ${fiveOf(goSorted(volumes[key]))}`);
  return [`Waiting for Node volumes to be detached (started at ${startedAt})`, ...lines].join('\n');
}

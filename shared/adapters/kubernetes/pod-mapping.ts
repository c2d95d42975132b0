/**
 * Pods, PersistentVolumes and evictions as client-node returns them → what a drain sees
 * (WorkloadPod, WorkloadPersistentVolume, EvictionOutcome), and a static Pod's status as the
 * control plane's health check reads it (StaticPod). A refused eviction keeps the API's message and its causes, the way Cluster
 * API's drain reports them ("Cannot evict pod as it would violate the pod's disruption budget. The
 * disruption budget web needs 2 healthy pods and has 2 currently").
 */
import { ApiException, type V1PersistentVolume, type V1Pod } from '@kubernetes/client-node';
import { isRecord } from '../../contracts/json.js';
import type { EvictionOutcome, WorkloadPersistentVolume, WorkloadPod, WorkloadVolumeAttachment } from '../../ports/workload-cluster.js';
import type { StaticPod } from '../../ports/workload-static-pods.js';
import { statusBody } from './workload-api-errors.js';

export function workloadPodOfV1(pod: V1Pod): WorkloadPod | undefined {
  const name = pod.metadata?.name;
  if (!name) return undefined;
  const controller = pod.metadata?.ownerReferences?.find((owner) => owner.controller === true);
  const deletion = pod.metadata?.deletionTimestamp;
  return {
    namespace: pod.metadata?.namespace ?? 'default',
    name,
    labels: { ...pod.metadata?.labels },
    annotations: { ...pod.metadata?.annotations },
    ...(controller ? { controller: { kind: controller.kind, name: controller.name } } : {}),
    ...(pod.status?.phase ? { phase: pod.status.phase } : {}),
    ...(deletion ? { deletionTimestamp: deletion instanceof Date ? deletion.toISOString() : String(deletion) } : {}),
    localStorage: (pod.spec?.volumes ?? []).some((volume) => volume.emptyDir !== undefined),
    persistentVolumeClaims: (pod.spec?.volumes ?? []).flatMap((volume) => volume.persistentVolumeClaim?.claimName ?? []),
  };
}

export function staticPodOfV1(pod: V1Pod): StaticPod | undefined {
  const name = pod.metadata?.name;
  if (!name) return undefined;
  return {
    name,
    ...(pod.status?.phase ? { phase: pod.status.phase } : {}),
    conditions: (pod.status?.conditions ?? []).map((c) => ({ type: c.type, status: c.status })),
    containers: (pod.status?.containerStatuses ?? []).map((c) => ({
      ...(c.state?.waiting ? { waitingReason: c.state.waiting.reason ?? '' } : {}),
      ...(c.state?.terminated ? { terminatedReason: c.state.terminated.reason ?? '' } : {}),
      ...(c.lastState?.terminated ? { lastExitCode: c.lastState.terminated.exitCode } : {}),
    })),
  };
}

export function persistentVolumeOfV1(pv: V1PersistentVolume): WorkloadPersistentVolume | undefined {
  const name = pv.metadata?.name;
  if (!name) return undefined;
  const csi = pv.spec?.csi;
  const claim = pv.spec?.claimRef;
  return {
    name,
    ...(csi ? { csi: { driver: csi.driver, volumeHandle: csi.volumeHandle } } : {}),
    ...(claim ? { claimRef: { ...(claim.kind ? { kind: claim.kind } : {}), ...(claim.namespace ? { namespace: claim.namespace } : {}), ...(claim.name ? { name: claim.name } : {}) } } : {}),
  };
}

export function volumeAttachmentOf(name: string, persistentVolumeName: string | undefined): WorkloadVolumeAttachment {
  return { name, ...(persistentVolumeName ? { persistentVolumeName } : {}) };
}

/** An eviction the API answered with an error, when the answer is one a drain reports (else undefined: the caller classifies it). */
export function refusedEviction(error: unknown): EvictionOutcome | undefined {
  if (!(error instanceof ApiException)) return undefined;
  const status = parseStatus(error.body);
  if (error.code === 404) return { result: 'NotFound' };
  if (error.code === 429) return { result: 'Refused', reason: 'DisruptionBudget', message: withCauses(status) };
  if (error.code === 403 && status.causes.some((cause) => cause.type === 'NamespaceTerminating')) {
    return { result: 'Refused', reason: 'NamespaceTerminating', message: status.message };
  }
  if (error.code === 401 || error.code === 403 || error.code >= 500) return undefined;
  return { result: 'Refused', reason: 'Failed', message: withCauses(status) || `the API answered ${error.code}` };
}

interface ParsedStatus {
  message: string;
  causes: { type: string; message: string }[];
}

function parseStatus(body: unknown): ParsedStatus {
  const parsed = statusBody(body);
  if (!isRecord(parsed)) return { message: '', causes: [] };
  const details = isRecord(parsed.details) ? parsed.details : {};
  const causes = Array.isArray(details.causes) ? details.causes : [];
  return {
    message: typeof parsed.message === 'string' ? parsed.message : '',
    causes: causes.flatMap((cause) => (isRecord(cause) ? [{ type: String(cause.type ?? ''), message: String(cause.message ?? '') }] : [])),
  };
}

/** Cluster API's drain: the message, a space, the causes' messages joined by commas. */
function withCauses(status: ParsedStatus): string {
  return status.causes.length > 0 ? `${status.message} ${status.causes.map((cause) => cause.message).join(',')}` : status.message;
}

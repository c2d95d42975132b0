/**
 * A running AWSMachine's instance and its EBS volumes follow its additional tags (CAPA's
 * ensureTags and ensureStorageTags): the AWSCluster's `spec.additionalTags` with the AWSMachine's
 * over them. What was applied last is kept in CAPA's annotations (JSON):
 * `sigs.k8s.io/cluster-api-provider-aws-last-applied-tags` for the instance and
 * `sigs.k8s.io/cluster-api-provider-last-applied-tags-on-volumes` (by volume id) for the volumes.
 * A tag added or changed since is created, one dropped is deleted (with the value it was applied
 * with: a tag someone changed by hand stays). Nothing changed, no call and no write. EC2 first,
 * then the annotations, in one write: a crash between the two sends the same idempotent calls
 * again. A volume that cannot be tagged is logged and tried again next time, as in CAPA.
 */
import { deepEqual, stringEntriesOf } from '../../../../../shared/contracts/json.js';
import { additionalTags, type Tags } from '../../../../../shared/contracts/providers/aws/aws-tags.js';
import { isCloudApiError } from '../../../../../shared/errors/index.js';
import type { PhaseResult } from '../../../engine/skeleton/types.js';
import { lastApplied, recordLastApplied } from './last-applied.js';
import type { AwsMachineScope } from './scope.js';

export const TAGS_LAST_APPLIED_ANNOTATION = 'sigs.k8s.io/cluster-api-provider-aws-last-applied-tags';
export const VOLUME_TAGS_LAST_APPLIED_ANNOTATION = 'sigs.k8s.io/cluster-api-provider-last-applied-tags-on-volumes';
const TAGS_RETRY_SECONDS = 30;

/** The tags last applied to the instance, as the annotation holds them (values that are not strings are left out). */
export function lastAppliedTags(annotations: Readonly<Record<string, string>> | undefined): Record<string, string> {
  return stringEntriesOf(lastApplied(annotations, TAGS_LAST_APPLIED_ANNOTATION));
}

/** CAPA's tagsChanged: what to create or update, what to delete, and the annotation's next content. */
export function tagsChanged(lastAppliedTags: Tags, wanted: Tags): { changed: boolean; create: Tags; delete: Tags; next: Tags } {
  const create = Object.fromEntries(Object.entries(wanted).filter(([key, value]) => lastAppliedTags[key] !== value));
  const remove = Object.fromEntries(Object.entries(lastAppliedTags).filter(([key]) => !(key in wanted)));
  return { changed: Object.keys(create).length + Object.keys(remove).length > 0, create, delete: remove, next: { ...wanted } };
}

/** Tags each volume, returning what is now applied to each (a volume that failed keeps what it had). */
async function tagVolumes(s: AwsMachineScope, volumeIds: readonly string[], wanted: Tags): Promise<Record<string, Tags>> {
  const previous = lastApplied(s.object.metadata.annotations, VOLUME_TAGS_LAST_APPLIED_ANNOTATION);
  const applied: Record<string, Tags> = {};
  for (const volumeId of volumeIds) {
    const last = stringEntriesOf(previous[volumeId]);
    const change = tagsChanged(last, wanted);
    try {
      if (change.changed) await s.cloud?.ec2.updateResourceTags(volumeId, { create: change.create, delete: change.delete });
      applied[volumeId] = change.next;
    } catch (error) {
      if (!isCloudApiError(error)) throw error;
      s.ctx.logger.warn('failed to ensure the tags of a volume; will retry', { volume: volumeId, error: error.message });
      applied[volumeId] = last;
    }
  }
  return applied;
}

export async function tagsPhase(s: AwsMachineScope): Promise<PhaseResult> {
  const instance = s.instance;
  if (!instance || instance.state === 'terminated' || !s.cloud) return {};
  const wanted = additionalTags(stringEntriesOf(s.awsCluster?.spec?.additionalTags), stringEntriesOf(s.object.spec?.additionalTags));
  const change = tagsChanged(lastAppliedTags(s.object.metadata.annotations), wanted);
  try {
    if (change.changed) await s.cloud.ec2.updateResourceTags(instance.id, { create: change.create, delete: change.delete });
  } catch (error) {
    // CAPA returns the error and retries; the instance itself is as ready as it was.
    if (!isCloudApiError(error)) throw error;
    s.ctx.logger.warn('failed to ensure the instance tags; will retry', { instance: instance.id, error: error.message });
    return { requeueAfterSeconds: TAGS_RETRY_SECONDS };
  }
  const volumes = await tagVolumes(s, instance.volumeIds ?? [], wanted);
  const volumesBefore = lastApplied(s.object.metadata.annotations, VOLUME_TAGS_LAST_APPLIED_ANNOTATION);
  const volumesChanged = !deepEqual(volumesBefore, volumes) && (Object.keys(volumesBefore).length > 0 || Object.values(volumes).some((tags) => Object.keys(tags).length > 0));
  if (!change.changed && !volumesChanged) return {};
  await recordLastApplied(s, {
    ...(change.changed ? { [TAGS_LAST_APPLIED_ANNOTATION]: change.next } : {}),
    ...(volumesChanged ? { [VOLUME_TAGS_LAST_APPLIED_ANNOTATION]: volumes } : {}),
  });
  return {};
}

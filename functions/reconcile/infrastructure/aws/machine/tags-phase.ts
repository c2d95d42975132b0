/**
 * A running AWSMachine's instance follows its additional tags (CAPA's ensureTags): the AWSCluster's
 * `spec.additionalTags` with the AWSMachine's over them. What was applied last is kept in the
 * annotation `sigs.k8s.io/cluster-api-provider-aws-last-applied-tags` (JSON, as CAPA writes it):
 * a tag added or changed since is created, one dropped is deleted (with the value it was applied
 * with: a tag someone changed by hand stays). Nothing changed, no call and no write. EC2 first,
 * then the annotation: a crash between the two sends the same idempotent calls again.
 */
import { stringEntriesOf } from '../../../../../shared/contracts/json.js';
import { additionalTags, type Tags } from '../../../../../shared/contracts/providers/aws/aws-tags.js';
import { isCloudApiError } from '../../../../../shared/errors/index.js';
import type { PhaseResult } from '../../../engine/skeleton/types.js';
import { lastApplied, recordLastApplied } from './last-applied.js';
import type { AwsMachineScope } from './scope.js';

export const TAGS_LAST_APPLIED_ANNOTATION = 'sigs.k8s.io/cluster-api-provider-aws-last-applied-tags';
const TAGS_RETRY_SECONDS = 30;

/** The tags last applied, as the annotation holds them (values that are not strings are left out). */
export function lastAppliedTags(annotations: Readonly<Record<string, string>> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(lastApplied(annotations, TAGS_LAST_APPLIED_ANNOTATION)).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** CAPA's tagsChanged: what to create or update, what to delete, and the annotation's next content. */
export function tagsChanged(lastApplied: Tags, wanted: Tags): { changed: boolean; create: Tags; delete: Tags; next: Tags } {
  const create = Object.fromEntries(Object.entries(wanted).filter(([key, value]) => lastApplied[key] !== value));
  const remove = Object.fromEntries(Object.entries(lastApplied).filter(([key]) => !(key in wanted)));
  return { changed: Object.keys(create).length + Object.keys(remove).length > 0, create, delete: remove, next: { ...wanted } };
}

export async function tagsPhase(s: AwsMachineScope): Promise<PhaseResult> {
  const instance = s.instance;
  if (!instance || instance.state === 'terminated' || !s.cloud) return {};
  const wanted = additionalTags(stringEntriesOf(s.awsCluster?.spec?.additionalTags), stringEntriesOf(s.object.spec?.additionalTags));
  const change = tagsChanged(lastAppliedTags(s.object.metadata.annotations), wanted);
  if (!change.changed) return {};
  try {
    await s.cloud.ec2.updateInstanceTags(instance.id, { create: change.create, delete: change.delete });
  } catch (error) {
    // CAPA returns the error and retries; the instance itself is as ready as it was.
    if (!isCloudApiError(error)) throw error;
    s.ctx.logger.warn('failed to ensure the instance tags; will retry', { instance: instance.id, error: error.message });
    return { requeueAfterSeconds: TAGS_RETRY_SECONDS };
  }
  await recordLastApplied(s, TAGS_LAST_APPLIED_ANNOTATION, change.next);
  return {};
}

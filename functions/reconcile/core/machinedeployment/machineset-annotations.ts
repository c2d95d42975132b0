/**
 * The annotations a MachineDeployment keeps on its MachineSets, pure (Cluster API's
 * MachineSetAnnotationsFromMachineDeployment, ComputeRevisionAnnotations, GetRevisionAnnotations
 * and its rollout planner's disable-machine-create):
 * - its own annotations, but for those about one object alone (kubectl's last-applied
 *   configuration, the revision and its history, the replica annotations, conversion data);
 * - `desired-replicas` and `max-replicas`: its replicas, and those plus maxSurge (none for
 *   OnDelete), which a paused MachineDeployment's scaling reads back (paused-scale.ts);
 * - `revision`: the current MachineSet's is one past the highest of the others and never lowered,
 *   an old one keeps its own; one that becomes current again keeps the revisions it had in
 *   `revision-history`. The MachineDeployment shows its current MachineSet's revision, and a
 *   Machine of a MachineSet behind it is outdated (its Node is tainted, machine/node-sync.ts);
 * - `disable-machine-create`: `"true"` on an old MachineSet of an OnDelete MachineDeployment (a
 *   Machine deleted there is replaced by the current MachineSet), `"false"` otherwise.
 */

import {
  ANNOTATION_CONVERSION_DATA,
  ANNOTATION_DESIRED_REPLICAS,
  ANNOTATION_DISABLE_MACHINE_CREATE,
  ANNOTATION_KUBECTL_LAST_APPLIED,
  ANNOTATION_MAX_REPLICAS,
  ANNOTATION_REVISION,
  ANNOTATION_REVISION_HISTORY,
  type KubeObject,
} from '../../../../shared/contracts/object.js';
import type { RolloutStrategy } from './rollout-plan.js';

/** Cluster API's annotationsToSkip: they describe the MachineDeployment itself. */
const NOT_COPIED = new Set([
  ANNOTATION_KUBECTL_LAST_APPLIED,
  ANNOTATION_REVISION,
  ANNOTATION_REVISION_HISTORY,
  ANNOTATION_DESIRED_REPLICAS,
  ANNOTATION_MAX_REPLICAS,
  ANNOTATION_CONVERSION_DATA,
]);

/**
 * The object's revision: 0 without the annotation (Cluster API's mdutil.Revision), undefined
 * when it holds no decimal integer (Cluster API skips such a MachineSet among the old ones and
 * fails the reconcile; here it counts as none and the current one is given a valid revision).
 */
export function revisionOf(object: KubeObject): number | undefined {
  const value = object.metadata.annotations?.[ANNOTATION_REVISION];
  if (value === undefined) return 0;
  return /^[+-]?\d{1,15}$/.test(value) ? Number(value) : undefined;
}

/** MaxRevision: the highest readable revision among the MachineSets (0 for none). */
function maxRevision(machineSets: readonly KubeObject[]): number {
  return machineSets.reduce((max, ms) => Math.max(max, revisionOf(ms) ?? 0), 0);
}

/** What every MachineSet of the MachineDeployment carries, old or current. */
function fromMachineDeployment(md: KubeObject, replicas: number, strategy: RolloutStrategy): Record<string, string> {
  const copied = Object.entries(md.metadata.annotations ?? {}).filter(([key]) => !NOT_COPIED.has(key));
  return {
    ...Object.fromEntries(copied),
    [ANNOTATION_DESIRED_REPLICAS]: String(replicas),
    [ANNOTATION_MAX_REPLICAS]: String(replicas + strategy.maxSurge),
  };
}

/**
 * The revision annotations of the current MachineSet (`current`, undefined for one about to be
 * created) among `others`, the MachineDeployment's other MachineSets.
 */
export function currentRevisionAnnotations(current: KubeObject | undefined, others: readonly KubeObject[]): Record<string, string> {
  const next = maxRevision(others) + 1;
  const had = current?.metadata.annotations?.[ANNOTATION_REVISION];
  const hadRevision = current ? revisionOf(current) : undefined;
  const revision = had !== undefined && hadRevision !== undefined && hadRevision > next ? hadRevision : next;
  const annotations: Record<string, string> = { [ANNOTATION_REVISION]: String(revision) };
  const history = current?.metadata.annotations?.[ANNOTATION_REVISION_HISTORY];
  if (history !== undefined) annotations[ANNOTATION_REVISION_HISTORY] = history;
  if (had !== undefined && hadRevision !== undefined && had !== String(revision)) annotations[ANNOTATION_REVISION_HISTORY] = history ? `${history},${had}` : had;
  return annotations;
}

export interface MachineSetAnnotationsInput {
  md: KubeObject;
  replicas: number;
  strategy: RolloutStrategy;
  /** Every MachineSet the MachineDeployment controls. */
  machineSets: readonly KubeObject[];
}

/** The annotations to set over those the MachineSet `ms` has (undefined: the current one, about to be created). */
export function machineSetAnnotations(input: MachineSetAnnotationsInput, ms: KubeObject | undefined, current: boolean): Record<string, string> {
  const shared = fromMachineDeployment(input.md, input.replicas, input.strategy);
  if (current) {
    const others = input.machineSets.filter((other) => other.metadata.name !== ms?.metadata.name);
    return { ...shared, ...currentRevisionAnnotations(ms, others), [ANNOTATION_DISABLE_MACHINE_CREATE]: 'false' };
  }
  return { ...shared, [ANNOTATION_DISABLE_MACHINE_CREATE]: input.strategy.type === 'OnDelete' ? 'true' : 'false' };
}

/**
 * The replicas default of a MachineDeployment or MachineSet under the cluster autoscaler, as
 * Cluster API's webhooks compute it (core/webhooks/admission machinedeployment.go
 * `calculateMachineDeploymentReplicas`, machineset.go `calculateMachineSetReplicas`). With both
 * node-group size annotations and no `spec.replicas`: a new object starts at the minimum; an
 * existing one keeps its replicas when they are within the bounds and is brought to the nearer
 * bound otherwise. So handing a pool to the autoscaler (dropping `replicas` from a manifest)
 * never scales it to the plain default of 1. Pure.
 */

import { type JsonRecord, isRecord } from '../json.js';
import { ANNOTATION_AUTOSCALER_MAX_SIZE, ANNOTATION_AUTOSCALER_MIN_SIZE, type KubeObject } from '../object.js';
import { type FieldError, invalid } from '../validation/field-error.js';

/** The kinds whose replicas the autoscaler's annotations default (group/kind). */
const AUTOSCALED_KINDS: ReadonlySet<string> = new Set(['cluster.x-k8s.io/MachineDeployment', 'cluster.x-k8s.io/MachineSet']);

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

/**
 * Sets `spec.replicas` of `obj` (in the storage version, not yet defaulted) from the autoscaler
 * annotations when it has none; `old` is the stored object on an update. Returns the errors of
 * annotations that are not 32-bit integers (Go's `strconv.ParseInt(s, 10, 32)`).
 */
export function defaultAutoscaledReplicas(group: string, kind: string, obj: JsonRecord, old: KubeObject | undefined): FieldError[] {
  if (!AUTOSCALED_KINDS.has(`${group}/${kind}`)) return [];
  const spec = obj.spec;
  if (!isRecord(spec) || spec.replicas !== undefined) return [];
  const annotations = isRecord(obj.metadata) && isRecord(obj.metadata.annotations) ? obj.metadata.annotations : {};
  const minText = annotations[ANNOTATION_AUTOSCALER_MIN_SIZE];
  const maxText = annotations[ANNOTATION_AUTOSCALER_MAX_SIZE];
  if (minText === undefined || maxText === undefined) return [];
  const min = parseInt32(minText);
  const max = parseInt32(maxText);
  const errors: FieldError[] = [];
  if (min === undefined) errors.push(unparsable(ANNOTATION_AUTOSCALER_MIN_SIZE, minText));
  if (max === undefined) errors.push(unparsable(ANNOTATION_AUTOSCALER_MAX_SIZE, maxText));
  if (min === undefined || max === undefined) return errors;
  spec.replicas = replicasWithin(min, max, oldReplicas(old));
  return [];
}

function replicasWithin(min: number, max: number, previous: number | undefined): number {
  if (previous === undefined || previous < min) return min;
  if (previous > max) return max;
  return previous;
}

function oldReplicas(old: KubeObject | undefined): number | undefined {
  const replicas = old !== undefined && isRecord(old.spec) ? old.spec.replicas : undefined;
  return typeof replicas === 'number' ? replicas : undefined;
}

function parseInt32(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^[+-]?[0-9]+$/.test(value)) return undefined;
  const n = Number(value);
  return n >= INT32_MIN && n <= INT32_MAX ? n : undefined;
}

function unparsable(annotation: string, value: unknown): FieldError {
  return invalid(`metadata.annotations[${annotation}]`, value, `could not calculate the replicas default: the value of the ${JSON.stringify(annotation)} annotation is not a 32-bit integer`);
}

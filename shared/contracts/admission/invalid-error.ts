/** One InvalidError (422) from field errors, worded like the Kubernetes API server. */

import { InvalidError } from '../../errors/index.js';
import { type GroupKind, groupKindString } from '../object.js';
import { errorBody, type FieldError, renderFieldError } from '../validation/field-error.js';

/** `KubeadmControlPlane.controlplane.cluster.x-k8s.io "cp" is invalid: spec.replicas: Invalid value: 2: …` */
export function invalidError(gk: GroupKind, name: string, errors: readonly FieldError[]): InvalidError {
  const rendered = errors.map(renderFieldError);
  const list = rendered.length === 1 ? rendered[0] : `[${rendered.join(', ')}]`;
  return new InvalidError(`${groupKindString(gk)} "${name}" is invalid: ${list}`, {
    causes: errors.map((error) => ({ field: error.field, reason: error.reason, message: errorBody(error) })),
    details: { group: gk.group, kind: gk.kind, name },
  });
}

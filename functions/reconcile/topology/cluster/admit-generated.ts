/**
 * Objects the topology generates go through their kind's admission like any written through the
 * API (Cluster API's topology objects pass the same webhooks): defaults applied, and a generated
 * object admission would refuse is a reconcile failure naming the object and fields.
 */

import { strategyFor } from '../../../../shared/contracts/admission/strategies.js';
import { groupOf, type KubeObject } from '../../../../shared/contracts/object.js';
import type { ValidationContext } from '../../../../shared/contracts/validation/context.js';
import { renderFieldError } from '../../../../shared/contracts/validation/field-error.js';

export class GeneratedObjectInvalid extends Error {}

export function admitGenerated(ctx: ValidationContext): (object: KubeObject) => KubeObject {
  return (object) => {
    const result = strategyFor(groupOf(object.apiVersion), object.kind).admit(object, ctx);
    if (result.ok) return result.object;
    throw new GeneratedObjectInvalid(`the generated ${object.kind} ${object.metadata.name} is invalid: ${result.errors.map(renderFieldError).join(', ')}`);
  };
}

/** A reference must name a kind some registered provider serves. */

import type { ContractRef } from '../schemas/common/references.js';
import type { ValidationContext } from './context.js';
import { type FieldError, invalid } from './field-error.js';

export function validateServedReference(ref: ContractRef | undefined, field: string, ctx: ValidationContext): FieldError[] {
  if (!ref || ctx.isServedKind(ref.apiGroup, ref.kind)) return [];
  return [invalid(`${field}.kind`, ref.kind, `kind ${ref.kind} in group ${ref.apiGroup} is not served by any registered provider`)];
}

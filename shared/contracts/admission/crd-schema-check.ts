/**
 * The API server's schema validation of a custom resource, for the kinds whose CRD capless
 * vendors (../crds/crd-schemas.ts): the object, envelope aside, against the storage version's
 * openAPIV3Schema — types, enums, required fields, patterns, lengths, item, value and property
 * bounds, list-map keys and the CEL rules of a known shape. Runs after defaulting and before the
 * kind's own validation, the order of mutating admission, schema, validating webhooks (ADR 0120).
 */

import type { z } from 'zod';
import { crdSchema } from '../crds/crd-schemas.js';
import { groupOf, type KubeObject } from '../object.js';
import { zodFromStructural } from '../schemas/common/structural-schema.js';
import type { FieldError } from '../validation/field-error.js';
import { fieldErrorsFromZod } from './zod-issues.js';

const ENVELOPE = new Set(['apiVersion', 'kind', 'metadata', 'status']);

/** Built on first use: a Lambda function builds only the schemas of the kinds it admits. */
const built = new Map<string, z.ZodType | undefined>();

function checkerFor(group: string, kind: string): z.ZodType | undefined {
  const key = `${group}/${kind}`;
  if (!built.has(key)) {
    const schema = crdSchema(group, kind);
    built.set(key, schema ? zodFromStructural(schema) : undefined);
  }
  return built.get(key);
}

/** The field errors the CRD's schema reports on `object`; none for a kind without a vendored CRD. */
export function crdSchemaErrors(object: KubeObject): FieldError[] {
  const checker = checkerFor(groupOf(String(object.apiVersion)), String(object.kind));
  if (!checker) return [];
  const body = Object.fromEntries(Object.entries(object).filter(([key]) => !ENVELOPE.has(key)));
  const parsed = checker.safeParse(body);
  return parsed.success ? [] : fieldErrorsFromZod(parsed.error, body);
}

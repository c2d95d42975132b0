/**
 * ClusterClass variable schemas (`schema.openAPIV3Schema`, a CRD-schema subset) turned into a
 * validator by zod's JSON-schema reader (OpenAPI 3.0 dialect): types, enums, formats, bounds,
 * patterns, required properties and defaults are checked and applied by that library, not by
 * hand. Kubernetes' structural-schema rules come first: an object without `properties`
 * semantics for unknown fields prunes nothing here, it refuses them (as Cluster API's variable
 * validation does) unless `x-kubernetes-preserve-unknown-fields` is set.
 */

import { z } from 'zod';
import { isRecord, type JsonRecord } from '../json.js';

/** Annotations a validator must not see (documentation, Kubernetes extensions, CAPI metadata). */
const ANNOTATION_KEYS = new Set(['description', 'example', 'x-metadata', 'deprecatedV1Beta1Metadata']);

/** The OpenAPI schema in the form the validator reads; pure. */
export function structuralSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(structuralSchema);
  if (!isRecord(schema)) return schema;
  const out: JsonRecord = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATION_KEYS.has(key) || key.startsWith('x-kubernetes-')) continue;
    if (key === 'default' || key === 'enum' || key === 'const') out[key] = value;
    else if (key === 'properties' && isRecord(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, structuralSchema(sub)]));
    } else out[key] = structuralSchema(value);
  }
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  if (schema.type === 'object' && out.additionalProperties === undefined && !preserve) out.additionalProperties = false;
  if (schema['x-kubernetes-int-or-string'] === true && out.type === undefined) out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  return out;
}

export type VariableValidator = z.ZodType;

/** A validator for one variable, or the reason the schema cannot be read. */
export function compileVariableSchema(openAPIV3Schema: unknown): { ok: true; validator: VariableValidator } | { ok: false; message: string } {
  try {
    const structural = structuralSchema(openAPIV3Schema);
    if (!isRecord(structural)) return { ok: false, message: 'must be an object' };
    const validator = z.fromJSONSchema(structural, { defaultTarget: 'openapi-3.0' });
    return { ok: true, validator };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** The schema's top-level default, if it has one. */
export function schemaDefault(openAPIV3Schema: unknown): { has: boolean; value?: unknown } {
  return isRecord(openAPIV3Schema) && Object.hasOwn(openAPIV3Schema, 'default')
    ? { has: true, value: openAPIV3Schema.default }
    : { has: false };
}

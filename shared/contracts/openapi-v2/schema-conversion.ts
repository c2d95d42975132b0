/**
 * OpenAPI v3 schema → Swagger 2.0 schema, the way kube-apiserver publishes a CRD's structural
 * schema at `/openapi/v2` (apiextensions-apiserver's `ToStructuralOpenAPIV2`): what v2 cannot
 * say is dropped or loosened, never tightened, so kubectl's client-side validation (before 1.27)
 * rejects nothing the server accepts (ADR 0130).
 */

import { isRecord, type JsonRecord } from '../json.js';

const V3_REF_PREFIX = '#/components/schemas/';
const V2_REF_PREFIX = '#/definitions/';
/** Keywords OpenAPI v2 has no place for; kube-apiserver strips them from CRD schemas. */
const V3_ONLY = ['anyOf', 'oneOf', 'allOf', 'not', 'nullable', 'writeOnly', 'deprecated'] as const;

/** A v2 copy of one v3 schema; the input is left as it is. */
export function toOpenApiV2Schema(schema: JsonRecord): JsonRecord {
  return convert(schema);
}

function convert(node: JsonRecord): JsonRecord {
  const out: JsonRecord = {};
  for (const [key, value] of Object.entries(node)) {
    if ((V3_ONLY as readonly string[]).includes(key)) continue;
    const converted = convertKeyword(key, value);
    if (converted !== undefined) out[key] = converted;
  }
  if (out.type === undefined) liftBranchType(node, out);
  return loosen(node, out);
}

/** A keyword's v2 value, or undefined to leave it out. */
function convertKeyword(key: string, value: unknown): unknown {
  if (key === 'properties' && isRecord(value)) return convertProperties(value);
  if (key === 'items' && isRecord(value)) return convert(value);
  if (key === '$ref' && typeof value === 'string') return v2Ref(value);
  if (key !== 'additionalProperties') return value;
  // Structural schemas never say `false`: a closed object is one with properties.
  if (isRecord(value)) return convert(value);
  return value === true ? {} : undefined;
}

function convertProperties(properties: JsonRecord): JsonRecord {
  const out: JsonRecord = {};
  for (const [name, child] of Object.entries(properties)) out[name] = isRecord(child) ? convert(child) : {};
  return out;
}

function v2Ref(ref: string): string {
  return ref.startsWith(V3_REF_PREFIX) ? `${V2_REF_PREFIX}${ref.slice(V3_REF_PREFIX.length)}` : ref;
}

/**
 * A structural schema declares its type at the node, where zod puts a union's in its branches:
 * branches that agree on one type give the node that type; an integer-or-string union becomes
 * what CRDs write for it, `x-kubernetes-int-or-string` with no type.
 */
function liftBranchType(node: JsonRecord, out: JsonRecord): void {
  const anyOf = branchTypes(node.anyOf ?? node.oneOf, 'every');
  const allOf = branchTypes(node.allOf, 'some');
  const types = new Set([...(anyOf ?? []), ...(allOf ?? [])]);
  if (types.size === 1) out.type = [...types][0];
  else if (types.size === 2 && types.has('integer') && types.has('string') && anyOf) out['x-kubernetes-int-or-string'] = true;
}

/** The types a union's branches declare; with `every`, undefined when a branch declares none. */
function branchTypes(branches: unknown, mode: 'every' | 'some'): string[] | undefined {
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  const types: string[] = [];
  for (const branch of branches) {
    const type = isRecord(branch) ? branchType(branch) : undefined;
    if (type === undefined && mode === 'every') return undefined;
    if (type !== undefined) types.push(...type);
  }
  return types;
}

function branchType(branch: JsonRecord): string[] | undefined {
  if (typeof branch.type === 'string') return [branch.type];
  return branchTypes(branch.anyOf ?? branch.oneOf, 'every') ?? branchTypes(branch.allOf, 'some');
}

/** kube-apiserver's loosening: kubectl's old parser breaks on what these nodes would otherwise carry. */
function loosen(node: JsonRecord, out: JsonRecord): JsonRecord {
  if (node.nullable === true) {
    delete out.type;
    delete out.items;
    delete out.properties;
  }
  if (out['x-kubernetes-preserve-unknown-fields'] === true) {
    delete out.items;
    delete out.properties;
  }
  if (out.type === 'array' && out.items === undefined) delete out.type;
  const properties = isRecord(out.properties) ? out.properties : undefined;
  if (Array.isArray(out.required)) {
    const nullableValues = isRecord(node.additionalProperties) && node.additionalProperties.nullable === true;
    const required = out.required.filter(
      (name) => typeof name === 'string' && properties !== undefined && name in properties && !isNullable(node, name) && !nullableValues,
    );
    if (required.length > 0) out.required = required;
    else delete out.required;
  }
  return out;
}

function isNullable(node: JsonRecord, property: string): boolean {
  return isRecord(node.properties) && isRecord(node.properties[property]) && node.properties[property].nullable === true;
}

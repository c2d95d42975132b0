/**
 * A Kubernetes structural schema (a CRD version's `openAPIV3Schema`) as a zod schema, so that a
 * provider's kinds are admitted by the very schema its CRD declares: what the CRD accepts is
 * accepted, what it rejects (unknown fields, wrong types, enums, patterns, bounds, required
 * fields, duplicate list-map keys) is rejected, and its `default`s are applied the way the
 * API server applies them (only where the enclosing object is present).
 *
 * `x-kubernetes-validations` (CEL rules) are evaluated where their shape is one ./cel-rules.ts
 * knows; the others are not (`celRulesOf` lists them so a test can say which are covered).
 */

import { z } from 'zod';
import { invalid } from '../../validation/field-error.js';
import { celPredicate, celValueType } from './cel-rules.js';

export interface StructuralSchema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  properties?: Record<string, StructuralSchema>;
  required?: readonly string[];
  additionalProperties?: StructuralSchema | boolean;
  items?: StructuralSchema;
  enum?: readonly unknown[];
  default?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  allOf?: readonly StructuralSchema[];
  anyOf?: readonly StructuralSchema[];
  nullable?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: readonly string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-validations'?: readonly { rule: string; message?: string }[];
}

/** The zod schema of any node. */
export function zodFromStructural(schema: StructuralSchema): z.ZodType {
  const base = nodeSchema(schema);
  return schema.nullable ? base.nullable() : base;
}

/** The zod schema of an object node (a kind's `spec` or `status`). */
export function zodObjectFromStructural(schema: StructuralSchema): z.ZodType<Record<string, unknown>> {
  return zodFromStructural(schema).pipe(z.record(z.string(), z.unknown()));
}

function nodeSchema(schema: StructuralSchema): z.ZodType {
  if (schema['x-kubernetes-int-or-string']) return withCelRules(z.union([z.int(), z.string()]), schema);
  const typed = typedSchema(schema);
  return withCelRules(
    (schema.allOf ?? []).reduce<z.ZodType>((acc, part) => acc.and(constraintsOnly(part)), typed),
    schema,
  );
}

/**
 * The node's CEL rules of a known shape, checked once the node is otherwise valid (as the API
 * server does), each failure `Invalid value: "<type>": <message>` at the node's path.
 */
function withCelRules(base: z.ZodType, schema: StructuralSchema): z.ZodType {
  const rules = (schema['x-kubernetes-validations'] ?? []).flatMap(({ rule, message }) => {
    const predicate = celPredicate(rule);
    return predicate ? [{ predicate, detail: message ?? `failed rule: ${rule}` }] : [];
  });
  if (rules.length === 0) return base;
  return base.superRefine((value, ctx) => {
    for (const { predicate, detail } of rules) {
      if (predicate(value)) continue;
      const fieldError = invalid('', schema.type ?? celValueType(value), detail);
      ctx.addIssue({ code: 'custom', message: detail, params: { fieldError } });
    }
  });
}

/** An `allOf` member repeats constraints (enums) without a type: check them on the same value. */
function constraintsOnly(part: StructuralSchema): z.ZodType {
  return part.enum ? enumSchema(part.enum) : z.unknown();
}

function typedSchema(schema: StructuralSchema): z.ZodType {
  if (schema.enum) return enumSchema(schema.enum);
  switch (schema.type) {
    case 'object':
      return objectSchema(schema);
    case 'array':
      return arraySchema(schema);
    case 'string':
      return stringSchema(schema);
    case 'integer':
      return numberSchema(schema, schema.format === 'int32' ? z.int32() : z.int());
    case 'number':
      return numberSchema(schema, z.number());
    case 'boolean':
      return z.boolean();
    default:
      return z.unknown();
  }
}

function enumSchema(values: readonly unknown[]): z.ZodType {
  const literals = values.filter((v): v is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof v));
  if (literals.length === 0) return z.never();
  const [first, ...rest] = literals.map((v) => z.literal(v));
  return rest.length === 0 || !first ? (first ?? z.never()) : z.union([first, ...rest]);
}

function stringSchema(schema: StructuralSchema): z.ZodType {
  let s = z.string();
  if (schema.minLength !== undefined) s = s.min(schema.minLength);
  if (schema.maxLength !== undefined) s = s.max(schema.maxLength);
  if (schema.pattern !== undefined) s = s.regex(new RegExp(schema.pattern, 'u'));
  if (schema.format === 'date-time') return s.refine((v) => !Number.isNaN(Date.parse(v)), 'must be an RFC 3339 date-time');
  return s;
}

function numberSchema(schema: StructuralSchema, base: z.ZodNumber): z.ZodType {
  let n = base;
  if (schema.minimum !== undefined) n = n.min(schema.minimum);
  if (schema.maximum !== undefined) n = n.max(schema.maximum);
  return n;
}

function arraySchema(schema: StructuralSchema): z.ZodType {
  let a = z.array(schema.items ? zodFromStructural(schema.items) : z.unknown());
  if (schema.minItems !== undefined) a = a.min(schema.minItems);
  if (schema.maxItems !== undefined) a = a.max(schema.maxItems);
  const listType = schema['x-kubernetes-list-type'];
  const mapKeys = schema['x-kubernetes-list-map-keys'] ?? [];
  if (listType === 'set') return a.refine((items) => new Set(items.map((i) => JSON.stringify(i))).size === items.length, 'duplicate entries in a set');
  if (listType === 'map' && mapKeys.length > 0) {
    return a.superRefine((items, ctx) => {
      const seen = new Set<string>();
      items.forEach((item, index) => {
        const record: Record<string, unknown> = typeof item === 'object' && item !== null ? { ...item } : {};
        const key = JSON.stringify(mapKeys.map((k) => record[k]));
        if (seen.has(key)) {
          // As the API server reports it: `…[1]: Duplicate value: {"class":"worker"}`.
          const fieldError = { field: '', reason: 'FieldValueDuplicate', value: Object.fromEntries(mapKeys.map((k) => [k, record[k]])) };
          ctx.addIssue({ code: 'custom', path: [index], message: `duplicate value for the list-map key(s) ${mapKeys.join(', ')}`, params: { fieldError } });
        }
        seen.add(key);
      });
    });
  }
  return a;
}

function objectSchema(schema: StructuralSchema): z.ZodType {
  const object = objectShape(schema);
  const { minProperties, maxProperties } = schema;
  if (minProperties === undefined && maxProperties === undefined) return object;
  return object.superRefine((value, ctx) => {
    const count = typeof value === 'object' && value !== null ? Object.keys(value).length : 0;
    if (minProperties !== undefined && count < minProperties) ctx.addIssue({ code: 'custom', message: `should have at least ${minProperties} properties`, params: { inBody: true } });
    if (maxProperties !== undefined && count > maxProperties) ctx.addIssue({ code: 'custom', message: `should have at most ${maxProperties} properties`, params: { inBody: true } });
  });
}

/** Declared properties (unknown ones rejected unless preserved), a map, or an open/empty object. */
function objectShape(schema: StructuralSchema): z.ZodType {
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  if (schema.properties) {
    const required = new Set(schema.required ?? []);
    const shape: Record<string, z.ZodType> = {};
    for (const [name, property] of Object.entries(schema.properties)) shape[name] = propertySchema(property, required.has(name));
    return preserve ? z.looseObject(shape) : z.strictObject(shape);
  }
  if (typeof schema.additionalProperties === 'object') return z.record(z.string(), zodFromStructural(schema.additionalProperties));
  if (preserve || schema.additionalProperties === true) return z.record(z.string(), z.unknown());
  return z.strictObject({});
}

function propertySchema(property: StructuralSchema, required: boolean): z.ZodType {
  const converted = zodFromStructural(property);
  if (required) return converted;
  return property.default !== undefined ? converted.default(property.default) : converted.optional();
}

/** Every CEL rule of a schema with its JSON path, for tests that list which ones capless enforces. */
export function celRulesOf(schema: StructuralSchema, path = ''): { path: string; rule: string; message?: string }[] {
  const own = (schema['x-kubernetes-validations'] ?? []).map((v) => ({ path: path || '.', ...v }));
  const children = [
    ...Object.entries(schema.properties ?? {}).flatMap(([name, child]) => celRulesOf(child, `${path}.${name}`)),
    ...(schema.items ? celRulesOf(schema.items, `${path}[]`) : []),
    ...(typeof schema.additionalProperties === 'object' ? celRulesOf(schema.additionalProperties, `${path}.*`) : []),
  ];
  return [...own, ...children];
}

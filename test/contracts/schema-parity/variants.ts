/**
 * Variants of a valid object derived along its CRD's openAPIV3Schema: for every field present
 * (objects walked by property, arrays through their first element) the field removed, of the
 * other type, outside its enum, and each declared bound crossed — `maxLength`/`minLength`,
 * `pattern`, `minItems`/`maxItems`, `minimum`/`maximum`, `minProperties`, `format` — with the
 * verdict the CRD gives. The CEL rules (`x-kubernetes-validations`) are broken by ./cel-rules.ts.
 */

import { isRecord } from '../../../shared/contracts/json.js';
import { fieldPath } from '../../../shared/contracts/validation/field-error.js';
import { celVariants, rulesOf } from './cel-rules.js';

export type Schema = Record<string, unknown>;
export type Segment = string | number;

export interface Variant {
  /** `spec.clusterName one past maxLength 63` — the field path then what was done to it. */
  name: string;
  /** Where the object was changed: a refusal must name this field (or one below it). */
  field: string;
  object: unknown;
  crdAccepts: boolean;
  /** The CEL rule the variant breaks, if that is what it does. */
  rule?: string;
}

const SKIPPED_ROOT = new Set(['apiVersion', 'kind', 'metadata', 'status']);
/** Deep enough for `spec.template.spec.kubeadmConfigSpec.diskSetup.partitions[0].diskLayout[0].partitionType`. */
const MAX_DEPTH = 10;

/** Variants of `root` along `schema`. */
export function variants(root: Record<string, unknown>, schema: Schema): Variant[] {
  const found: Variant[] = [];
  const walk = (node: unknown, nodeSchema: Schema, path: Segment[]) => {
    if (path.length >= MAX_DEPTH) return;
    for (const { at, value, schema: child, removal } of children(node, nodeSchema, path)) {
      if (removal) found.push(removed(root, at, path, removal.optional, removal.leavesEnough));
      found.push(...constraintVariants(root, at, value, child), ...celVariants(root, at, value, child));
      walk(value, child, at);
    }
  };
  walk(root, schema, []);
  return found;
}

interface Child {
  at: Segment[];
  value: unknown;
  schema: Schema;
  /** Object properties can be removed; an array's first element is only changed. */
  removal?: { optional: boolean; leavesEnough: boolean };
}

/** The present properties of an object, or the first element of an array, with their schemas. */
function children(node: unknown, nodeSchema: Schema, path: Segment[]): Child[] {
  if (Array.isArray(node)) {
    const items = nodeSchema.items;
    return isRecord(items) && node.length > 0 ? [{ at: [...path, 0], value: node[0], schema: items }] : [];
  }
  if (!isRecord(node)) return [];
  const properties = isRecord(nodeSchema.properties) ? nodeSchema.properties : {};
  const required = Array.isArray(nodeSchema.required) ? nodeSchema.required : [];
  // Removing the last fields of an object can take it below its minProperties: refused then too.
  const leavesEnough = Object.keys(node).length - 1 >= (num(nodeSchema.minProperties) ?? 0);
  return Object.entries(node).flatMap(([key, value]): Child[] => {
    const child = properties[key];
    if ((path.length === 0 && SKIPPED_ROOT.has(key)) || !isRecord(child)) return [];
    // A CEL rule of the object naming the field decides its removal: the rule's own variants cover that.
    const ruled = rulesOf(nodeSchema).some((rule) => rule.includes(`self.${key}`));
    return [{ at: [...path, key], value, schema: child, ...(ruled ? {} : { removal: { optional: !required.includes(key), leavesEnough } }) }];
  });
}

/** Accepted when the field is optional and its object keeps its minProperties; else refused there. */
function removed(root: Record<string, unknown>, at: Segment[], parent: Segment[], optional: boolean, leavesEnough: boolean): Variant {
  const removal = variant(root, at, 'removed', undefined, optional && leavesEnough);
  return optional && !leavesEnough ? { ...removal, field: fieldPath(parent) } : removal;
}

export function variant(root: Record<string, unknown>, at: Segment[], what: string, value: unknown, crdAccepts: boolean): Variant {
  const field = fieldPath(at);
  return { name: `${field} ${what}`, field, object: setAt(root, at, value), crdAccepts };
}

/** Type, enum and bound variants of the value at `at`. */
function constraintVariants(root: Record<string, unknown>, at: Segment[], value: unknown, schema: Schema): Variant[] {
  if (typeof value === 'string') return stringVariants(root, at, value, schema);
  if (typeof value === 'number') return numberVariants(root, at, schema);
  if (Array.isArray(value)) return arrayVariants(root, at, value, schema);
  if (isRecord(value)) return objectVariants(root, at, value, schema);
  return [];
}

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

function stringVariants(root: Record<string, unknown>, at: Segment[], value: string, schema: Schema): Variant[] {
  if (schema.type !== 'string') return [];
  const found = [variant(root, at, 'as a number', 7, false)];
  if (Array.isArray(schema.enum)) found.push(variant(root, at, 'outside its enum', 'NotAnEnumValue', false));
  const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : undefined;
  const fits = (s: string) => pattern === undefined || pattern.test(s);
  const max = num(schema.maxLength);
  const min = num(schema.minLength);
  if (max !== undefined) {
    const atMax = ofLength(value, max, fits);
    found.push(variant(root, at, `one past maxLength ${max}`, `${atMax ?? value.slice(0, max).padEnd(max, 'a')}a`, false));
    // At exactly maxLength the CRD accepts, unless a CEL rule on the field says more (then no claim).
    if (atMax !== undefined && schema['x-kubernetes-validations'] === undefined && schema.format === undefined) {
      found.push(variant(root, at, `at maxLength ${max}`, atMax, true));
    }
  }
  if (min !== undefined && min > 0) found.push(variant(root, at, `below minLength ${min}`, value.slice(0, min - 1), false));
  if (pattern?.test(value)) {
    const breaking = PATTERN_BREAKERS.find((s) => !pattern.test(s));
    if (breaking !== undefined) found.push(variant(root, at, `not matching its pattern`, breaking, false));
  }
  if (schema.format === 'date-time') found.push(variant(root, at, 'not a date-time', 'yesterday', false));
  return found;
}

/** Strings no CRD pattern in use matches: capitals, underscores, spaces, punctuation, a leading dash. */
const PATTERN_BREAKERS = ['UPPER_and spaces!', '-', ' ', '!!'];

/** A string of exactly `length` characters built from `value` that the pattern accepts, if one is found. */
function ofLength(value: string, length: number, fits: (s: string) => boolean): string | undefined {
  const candidates = [
    value.length >= length ? value.slice(0, length) : value.padEnd(length, 'a'),
    'a'.repeat(length),
    '1'.repeat(length),
    value.length >= length ? value.slice(0, length) : `${value}${'1'.repeat(length - value.length)}`,
  ];
  return candidates.find((c) => c.length === length && fits(c));
}

function numberVariants(root: Record<string, unknown>, at: Segment[], schema: Schema): Variant[] {
  if (schema.type !== 'integer' && schema.type !== 'number') return [];
  const found = [variant(root, at, 'as a string', 'seven', false)];
  const min = num(schema.minimum);
  const max = num(schema.maximum);
  if (min !== undefined) found.push(variant(root, at, `below minimum ${min}`, min - 1, false));
  if (max !== undefined) found.push(variant(root, at, `past maximum ${max}`, max + 1, false));
  if (schema.format === 'int32' && max === undefined) found.push(variant(root, at, 'past int32', 2 ** 31, false));
  return found;
}

function arrayVariants(root: Record<string, unknown>, at: Segment[], value: unknown[], schema: Schema): Variant[] {
  if (schema.type !== 'array') return [];
  const found: Variant[] = [];
  const min = num(schema.minItems);
  const max = num(schema.maxItems);
  if (max !== undefined && value.length > 0) {
    const filled = Array.from({ length: max + 1 }, (_, i) => distinct(value[i % value.length], i));
    found.push(variant(root, at, `past maxItems ${max}`, filled, false));
  }
  if (min !== undefined && min > 0) found.push(variant(root, at, `below minItems ${min}`, value.slice(0, min - 1), false));
  return found;
}

/** A copy of an element made different from its siblings where it has a name, so only the count is at fault. */
function distinct(element: unknown, index: number): unknown {
  if (typeof element === 'string') return `${element}${index}`.slice(0, Math.max(element.length, 1) + 4);
  if (isRecord(element) && typeof element.name === 'string') return { ...structuredClone(element), name: `${element.name}${index}` };
  return structuredClone(element);
}

function objectVariants(root: Record<string, unknown>, at: Segment[], value: Record<string, unknown>, schema: Schema): Variant[] {
  if (schema.type !== 'object') return [];
  const min = num(schema.minProperties);
  if (min === undefined || min === 0 || Object.keys(value).length === 0) return [];
  return [variant(root, at, `below minProperties ${min}`, {}, false)];
}

/** A copy of `root` with the value at `path` replaced (or deleted when `value` is undefined). */
export function setAt(root: Record<string, unknown>, path: readonly Segment[], value: unknown): unknown {
  const copy = structuredClone(root);
  let node: unknown = copy;
  for (const key of path.slice(0, -1)) {
    const next: unknown = Array.isArray(node) && typeof key === 'number' ? node[key] : isRecord(node) ? node[String(key)] : undefined;
    if (next === undefined || next === null) return copy;
    node = next;
  }
  const last = path.at(-1) ?? '';
  if (Array.isArray(node) && typeof last === 'number') {
    if (value === undefined) node.splice(last, 1);
    else node[last] = value;
  } else if (isRecord(node)) {
    if (value === undefined) delete node[String(last)];
    else node[String(last)] = value;
  }
  return copy;
}

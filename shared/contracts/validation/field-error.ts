/**
 * Field errors in the shape of apimachinery's `field.Error`: a path, a reason and a detail.
 * Admission collects them and turns them into one InvalidError (422).
 */

export type FieldErrorReason =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueDuplicate'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany';

export interface FieldError {
  /** `spec.topology.workers.machineDeployments[0].name` style. */
  field: string;
  reason: FieldErrorReason;
  /** The offending value, rendered in the message when the reason shows values. */
  value?: unknown;
  detail?: string;
  /** FieldValueNotSupported: the values that are allowed. */
  supported?: readonly unknown[];
}

type PathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Renders a path the way `field.Path.String()` does: dots for fields, brackets for indexes and keys. */
export function fieldPath(segments: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (typeof segment === 'string' && IDENTIFIER.test(segment)) out += out ? `.${segment}` : segment;
    else out += `[${String(segment)}]`;
  }
  return out;
}

export function joinPath(base: string, ...segments: PathSegment[]): string {
  const rest = fieldPath(segments);
  if (!base) return rest;
  return rest.startsWith('[') ? `${base}${rest}` : `${base}.${rest}`;
}

export const required = (field: string, detail?: string): FieldError => ({
  field,
  reason: 'FieldValueRequired',
  ...(detail ? { detail } : {}),
});

export const invalid = (field: string, value: unknown, detail: string): FieldError => ({
  field,
  reason: 'FieldValueInvalid',
  value,
  detail,
});

export const forbidden = (field: string, detail: string): FieldError => ({ field, reason: 'FieldValueForbidden', detail });

export const notSupported = (field: string, value: unknown, supported: readonly unknown[]): FieldError => ({
  field,
  reason: 'FieldValueNotSupported',
  value,
  supported,
});

export const tooLong = (field: string, value: unknown, max: number): FieldError => ({
  field,
  reason: 'FieldValueTooLong',
  value,
  detail: `may not be more than ${max} bytes`,
});

/** A list with more items than allowed (`field.TooMany`). */
export const tooMany = (field: string, count: number, max: number): FieldError => ({
  field,
  reason: 'FieldValueTooMany',
  value: count,
  detail: `must have at most ${max} items`,
});

/** A size limit over several values (`field.TooLong` of current apimachinery: no value shown). */
export const tooLongBytes = (field: string, max: number): FieldError => ({
  field,
  reason: 'FieldValueTooLong',
  detail: `must have at most ${max} bytes`,
});

/** Longer strings are cut in messages so a huge bad value is not echoed back whole. */
const RENDERED_STRING_MAX = 256;

function renderValue(value: unknown): string {
  if (value === undefined) return 'null';
  if (typeof value === 'string' && value.length > RENDERED_STRING_MAX) {
    return `${JSON.stringify(value.slice(0, RENDERED_STRING_MAX))}... (${value.length} characters)`;
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null) {
    return JSON.stringify(value);
  }
  return JSON.stringify(value) ?? String(value);
}

/** The error body without the field, as Kubernetes puts it in `causes[].message`. */
export function errorBody(error: FieldError): string {
  const detail = error.detail ? `: ${error.detail}` : '';
  switch (error.reason) {
    case 'FieldValueRequired':
      return `Required value${detail}`;
    case 'FieldValueInvalid':
      return `Invalid value: ${renderValue(error.value)}${detail}`;
    case 'FieldValueNotSupported':
      return `Unsupported value: ${renderValue(error.value)}: supported values: ${(error.supported ?? []).map(renderValue).join(', ')}`;
    case 'FieldValueForbidden':
      return `Forbidden${detail}`;
    case 'FieldValueDuplicate':
      return `Duplicate value: ${renderValue(error.value)}`;
    case 'FieldValueTooLong':
      return `Too long${detail}`;
    case 'FieldValueTooMany':
      return `Too many: ${renderValue(error.value)}${detail}`;
  }
}

/** `spec.replicas: Invalid value: 2: …`, as `field.Error.Error()` renders it. */
export function renderFieldError(error: FieldError): string {
  return error.field ? `${error.field}: ${errorBody(error)}` : errorBody(error);
}

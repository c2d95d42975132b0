/**
 * Decodes gnostic's `openapi_v2.Document` protobuf back to Swagger JSON for tests, with the field
 * numbers of github.com/google/gnostic-models openapiv2/OpenAPIv2.proto written out here again
 * (not imported from the encoder), so a wrong number on either side shows.
 */

import { type WireField, bytesOf, readFields, textOf } from './protobuf-reader.js';

type Json = Record<string, unknown>;

export function decodeSwaggerDocument(bytes: Uint8Array): Json {
  const out: Json = {};
  for (const field of readFields(bytes)) {
    if (field.field === 1) out.swagger = textOf(field);
    else if (field.field === 2) out.info = decodeInfo(bytesOf(field));
    else if (field.field === 8) out.paths = decodePaths(bytesOf(field));
    else if (field.field === 9) out.definitions = decodeNamedSchemas(bytesOf(field));
    else throw new Error(`Document has no field ${field.field} in what capless writes`);
  }
  return out;
}

function decodeInfo(bytes: Uint8Array): Json {
  const out: Json = {};
  for (const field of readFields(bytes)) {
    if (field.field === 1) out.title = textOf(field);
    else if (field.field === 2) out.version = textOf(field);
    else throw new Error(`Info field ${field.field}`);
  }
  return out;
}

function decodePaths(bytes: Uint8Array): Json {
  if (readFields(bytes).length > 0) throw new Error('capless writes no paths');
  return {};
}

/** Definitions and Properties alike: repeated NamedSchema = 1 { name = 1, value = 2 }. */
function decodeNamedSchemas(bytes: Uint8Array): Json {
  const out: Json = {};
  for (const entry of readFields(bytes)) {
    if (entry.field !== 1) throw new Error(`named schemas field ${entry.field}`);
    let name = '';
    let value: Json = {};
    for (const field of readFields(bytesOf(entry))) {
      if (field.field === 1) name = textOf(field);
      else if (field.field === 2) value = decodeSchema(bytesOf(field));
    }
    out[name] = value;
  }
  return out;
}

const STRING_FIELDS: Record<number, string> = { 1: '$ref', 2: 'format', 3: 'title', 4: 'description', 13: 'pattern' };
const DOUBLE_FIELDS: Record<number, string> = { 6: 'multipleOf', 7: 'maximum', 9: 'minimum' };
const INT_FIELDS: Record<number, string> = { 11: 'maxLength', 12: 'minLength', 14: 'maxItems', 15: 'minItems', 17: 'maxProperties', 18: 'minProperties' };
const BOOL_FIELDS: Record<number, string> = { 8: 'exclusiveMaximum', 10: 'exclusiveMinimum', 16: 'uniqueItems', 27: 'readOnly' };

export function decodeSchema(bytes: Uint8Array): Json {
  const out: Json = {};
  for (const field of readFields(bytes)) {
    const [key, value] = decodeSchemaField(field);
    if (key === 'required' || key === 'enum') out[key] = [...(Array.isArray(out[key]) ? out[key] : []), value];
    else out[key] = value;
  }
  return out;
}

function decodeSchemaField(field: WireField): [string, unknown] {
  const n = field.field;
  const scalar = decodeScalar(field);
  if (scalar) return scalar;
  if (n === 5) return ['default', decodeAny(field)];
  if (n === 19) return ['required', textOf(field)];
  if (n === 20) return ['enum', decodeAny(field)];
  if (n === 21) return ['additionalProperties', decodeAdditionalProperties(bytesOf(field))];
  if (n === 22) return ['type', readFields(bytesOf(field)).map(textOf)];
  if (n === 23) return ['items', readFields(bytesOf(field)).map((item) => decodeSchema(bytesOf(item)))];
  if (n === 25) return ['properties', decodeNamedSchemas(bytesOf(field))];
  if (n === 31) {
    const [name, value] = readFields(bytesOf(field));
    if (!name || !value) throw new Error('vendor extension without name or value');
    return [textOf(name), decodeAny(value)];
  }
  throw new Error(`Schema field ${n} (${field.wire}) is not one capless writes`);
}

function decodeScalar(field: WireField): [string, unknown] | undefined {
  const n = field.field;
  if (STRING_FIELDS[n]) return [STRING_FIELDS[n], textOf(field)];
  if (DOUBLE_FIELDS[n] && field.wire === 'fixed64') return [DOUBLE_FIELDS[n], field.value];
  if (INT_FIELDS[n] && field.wire === 'varint') return [INT_FIELDS[n], Number(field.value)];
  if (BOOL_FIELDS[n] && field.wire === 'varint') return [BOOL_FIELDS[n], field.value === 1n];
  return undefined;
}

function decodeAdditionalProperties(bytes: Uint8Array): unknown {
  const [field] = readFields(bytes);
  if (!field) throw new Error('empty AdditionalPropertiesItem');
  return field.field === 1 ? decodeSchema(bytesOf(field)) : field.wire === 'varint' && field.value === 1n;
}

/** Any { value = 1, yaml = 2 }: capless writes the yaml, as JSON text. */
function decodeAny(field: WireField): unknown {
  const [yaml] = readFields(bytesOf(field));
  if (yaml?.field !== 2) throw new Error('Any without yaml');
  return JSON.parse(textOf(yaml));
}

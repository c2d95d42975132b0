/**
 * The Swagger 2.0 document as gnostic's `openapi_v2.Document` protobuf
 * (github.com/google/gnostic-models openapiv2/OpenAPIv2.proto), the encoding kubectl before 1.27
 * asks `/openapi/v2` for (`Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf`).
 * Field numbers are the .proto's; values gnostic holds as `Any` (default, enum, example, vendor
 * extensions) carry their YAML text, and JSON is YAML.
 */

import { ProtobufWriter } from '../../protobuf/writer.js';
import { isRecord, type JsonRecord } from '../json.js';
import type { SwaggerDocument } from './document.js';

/** Document: swagger = 1, info = 2, paths = 8, definitions = 9. */
export function encodeSwaggerDocument(document: SwaggerDocument): Uint8Array {
  const writer = new ProtobufWriter()
    .string(1, document.swagger)
    .message(2, (info) => info.string(1, document.info.title).string(2, document.info.version))
    .message(8, () => {});
  // Definitions: repeated NamedSchema additional_properties = 1; NamedSchema: name = 1, value = 2.
  writer.message(9, (definitions) => {
    for (const [name, schema] of Object.entries(document.definitions)) definitions.message(1, (named) => writeNamedSchema(named, name, schema));
  });
  return writer.finish();
}

function writeNamedSchema(writer: ProtobufWriter, name: string, schema: unknown): void {
  writer.string(1, name).message(2, (value) => writeSchema(value, isRecord(schema) ? schema : {}));
}

type KeywordWriter = (writer: ProtobufWriter, value: unknown, keyword: string) => void;

const text = (field: number): KeywordWriter => (w, v, k) => w.string(field, expect(typeof v === 'string' ? v : undefined, k));
const double = (field: number): KeywordWriter => (w, v, k) => w.double(field, expect(typeof v === 'number' ? v : undefined, k));
const int64 = (field: number): KeywordWriter => (w, v, k) => w.varint(field, expect(typeof v === 'number' ? v : undefined, k));
const bool = (field: number): KeywordWriter => (w, v, k) => w.bool(field, expect(typeof v === 'boolean' ? v : undefined, k));
const yamlAny = (field: number): KeywordWriter => (w, v) => w.message(field, (any) => writeAny(any, v));
const strings = (field: number): KeywordWriter => (w, v, k) => {
  for (const item of expect(Array.isArray(v) ? v : undefined, k)) w.string(field, expect(typeof item === 'string' ? item : undefined, k));
};

/** Schema's field numbers, by the JSON keyword they hold. */
const SCHEMA_FIELDS: Record<string, KeywordWriter> = {
  $ref: text(1),
  format: text(2),
  title: text(3),
  description: text(4),
  default: yamlAny(5),
  multipleOf: double(6),
  maximum: double(7),
  exclusiveMaximum: bool(8),
  minimum: double(9),
  exclusiveMinimum: bool(10),
  maxLength: int64(11),
  minLength: int64(12),
  pattern: text(13),
  maxItems: int64(14),
  minItems: int64(15),
  uniqueItems: bool(16),
  maxProperties: int64(17),
  minProperties: int64(18),
  required: strings(19),
  enum: (w, v, k) => {
    for (const item of expect(Array.isArray(v) ? v : undefined, k)) w.message(20, (any) => writeAny(any, item));
  },
  // AdditionalPropertiesItem: oneof { Schema schema = 1; bool boolean = 2; }
  additionalProperties: (w, v, k) =>
    w.message(21, (item) => (typeof v === 'boolean' ? item.bool(2, v) : item.message(1, (s) => writeSchema(s, expectRecord(v, k))))),
  // TypeItem: repeated string value = 1.
  type: (w, v, k) => w.message(22, (item) => strings(1)(item, Array.isArray(v) ? v : [v], k)),
  // ItemsItem: repeated Schema schema = 1.
  items: (w, v, k) => w.message(23, (item) => item.message(1, (s) => writeSchema(s, expectRecord(v, k)))),
  // Properties: repeated NamedSchema additional_properties = 1.
  properties: (w, v, k) =>
    w.message(25, (properties) => {
      for (const [name, schema] of Object.entries(expectRecord(v, k))) properties.message(1, (named) => writeNamedSchema(named, name, schema));
    }),
  readOnly: bool(27),
  example: yamlAny(30),
};
const VENDOR_EXTENSION_FIELD = 31;

function writeSchema(writer: ProtobufWriter, schema: JsonRecord): void {
  for (const [keyword, value] of Object.entries(schema)) {
    if (value === undefined) continue;
    const write = SCHEMA_FIELDS[keyword];
    if (write) write(writer, value, keyword);
    else if (keyword.startsWith('x-')) writer.message(VENDOR_EXTENSION_FIELD, (named) => named.string(1, keyword).message(2, (any) => writeAny(any, value)));
    else throw new Error(`OpenAPI v2 schema keyword ${keyword} has no place in gnostic's Schema`);
  }
}

/** Any: yaml = 2 (JSON text, which YAML parsers read). */
function writeAny(writer: ProtobufWriter, value: unknown): void {
  writer.string(2, JSON.stringify(value));
}

function expect<T>(value: T | undefined, keyword: string): T {
  if (value === undefined) throw new Error(`OpenAPI v2 schema keyword ${keyword} has a value of the wrong type`);
  return value;
}

function expectRecord(value: unknown, keyword: string): JsonRecord {
  return expect(isRecord(value) ? value : undefined, keyword);
}

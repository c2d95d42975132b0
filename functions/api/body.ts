import { parse as parseYaml } from 'yaml';
import { BadRequestError, TooLargeError, UnsupportedMediaTypeError } from '../../shared/errors/index.js';
import { type ApiRequest, MAX_BODY_BYTES } from './http.js';
import { parseJsonText } from './input/json-text.js';
import { PROTOBUF_MEDIA_TYPE, objectFromProtobuf } from './input/protobuf/envelope.js';
import { checkUntrustedStructure } from './input/structure-limits.js';

const JSON_TYPES = ['application/json', 'application/yaml', 'application/apply-patch+yaml', '*/*', ''];
export const PATCH_TYPES = [
  'application/merge-patch+json',
  'application/json-patch+json',
  'application/strategic-merge-patch+json',
] as const;
export type PatchType = (typeof PATCH_TYPES)[number];

export function mediaType(request: ApiRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * Parses a create/replace body (JSON or YAML; protobuf for the core/v1 kinds client-go's typed
 * clients send that way); every failure is a 4xx.
 */
export function parseObjectBody(request: ApiRequest): unknown {
  const type = mediaType(request);
  if (type === PROTOBUF_MEDIA_TYPE) return parseProtobuf(request);
  if (!JSON_TYPES.includes(type)) {
    throw new UnsupportedMediaTypeError(
      `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, ${PROTOBUF_MEDIA_TYPE} (got ${JSON.stringify(type)})`,
    );
  }
  return parseText(request, type.includes('yaml'));
}

function parseProtobuf(request: ApiRequest): unknown {
  const bytes = request.bodyBytes ?? Buffer.from(request.body, 'utf8');
  if (bytes.length > MAX_BODY_BYTES) throw new TooLargeError(`the request body is ${bytes.length} bytes; the limit is ${MAX_BODY_BYTES} bytes`);
  if (bytes.length === 0) throw new BadRequestError('the request body is empty');
  const parsed = objectFromProtobuf(bytes);
  checkUntrustedStructure(parsed, 'the request body');
  return parsed;
}

export function parsePatchBody(request: ApiRequest): { type: PatchType; patch: unknown } {
  const type = mediaType(request);
  const known = PATCH_TYPES.find((t) => t === type);
  if (!known) {
    throw new UnsupportedMediaTypeError(`the body of the request was in an unknown format - accepted media types include: ${PATCH_TYPES.join(', ')} (got ${JSON.stringify(type)})`);
  }
  return { type: known, patch: parseText(request, false) };
}

/** A JSON document from text that is not a create/replace/patch body (DeleteOptions): the same checks. */
export function parseJsonBody(text: string, what: string): unknown {
  checkSize(text);
  const parsed = parseJsonText(text, what);
  checkUntrustedStructure(parsed, what);
  return parsed;
}

/** Every body enters here: size, syntax, duplicate keys, nesting and forbidden keys are checked once. */
function parseText(request: ApiRequest, yaml: boolean): unknown {
  checkSize(request.body);
  if (request.body.trim() === '') throw new BadRequestError('the request body is empty');
  const parsed = yaml ? parseYamlText(request.body) : parseJsonText(request.body, 'the request body');
  checkUntrustedStructure(parsed, 'the request body');
  return parsed;
}

function parseYamlText(text: string): unknown {
  try {
    // uniqueKeys (the default) refuses duplicate keys; aliases are bounded against billion-laughs bodies.
    return parseYaml(text, { maxAliasCount: 100, uniqueKeys: true });
  } catch (error) {
    throw new BadRequestError(`the request body is not valid YAML: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function checkSize(body: string): void {
  const bytes = Buffer.byteLength(body, 'utf8');
  if (bytes > MAX_BODY_BYTES) {
    throw new TooLargeError(`the request body is ${bytes} bytes; the limit is ${MAX_BODY_BYTES} bytes`);
  }
}

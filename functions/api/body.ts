import { parse as parseYaml } from 'yaml';
import { BadRequestError, TooLargeError, UnsupportedMediaTypeError } from '../../shared/errors/index.js';
import { type ApiRequest, MAX_BODY_BYTES } from './http.js';

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

/** Parses a create/replace body (JSON or YAML); every failure is a 4xx. */
export function parseObjectBody(request: ApiRequest): unknown {
  const type = mediaType(request);
  if (!JSON_TYPES.includes(type)) {
    throw new UnsupportedMediaTypeError(`the body of the request was in an unknown format - accepted media types include: application/json, application/yaml (got ${JSON.stringify(type)})`);
  }
  return parseText(request, type.includes('yaml'));
}

export function parsePatchBody(request: ApiRequest): { type: PatchType; patch: unknown } {
  const type = mediaType(request);
  const known = PATCH_TYPES.find((t) => t === type);
  if (!known) {
    throw new UnsupportedMediaTypeError(`the body of the request was in an unknown format - accepted media types include: ${PATCH_TYPES.join(', ')} (got ${JSON.stringify(type)})`);
  }
  return { type: known, patch: parseText(request, false) };
}

function parseText(request: ApiRequest, yaml: boolean): unknown {
  checkSize(request.body);
  if (request.body.trim() === '') throw new BadRequestError('the request body is empty');
  try {
    return yaml ? parseYaml(request.body, { maxAliasCount: 100 }) : JSON.parse(request.body);
  } catch (error) {
    throw new BadRequestError(`the request body is not valid ${yaml ? 'YAML' : 'JSON'}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function checkSize(body: string): void {
  const bytes = Buffer.byteLength(body, 'utf8');
  if (bytes > MAX_BODY_BYTES) {
    throw new TooLargeError(`the request body is ${bytes} bytes; the limit is ${MAX_BODY_BYTES} bytes`);
  }
}

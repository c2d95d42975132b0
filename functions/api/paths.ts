import { BadRequestError, NotFoundError } from '../../shared/errors/index.js';
import type { KindInfo, KindRegistry } from '../../shared/contracts/kinds.js';

/** A request for objects of one kind, parsed from a Kubernetes REST path. */
export interface ResourcePath {
  info: KindInfo;
  version: string;
  /** Undefined for a list across all namespaces. */
  namespace?: string;
  name?: string;
  subresource?: 'status';
}

const SEGMENT = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

interface ApiPrefix {
  group: string;
  version: string;
  rest: string[];
}

/** `/api/v1/<rest>` or `/apis/<group>/<version>/<rest>`, else undefined. */
function splitApiPrefix(path: string): ApiPrefix | undefined {
  const parts = path.split('/').slice(1);
  if (parts[0] === 'api' && parts.length >= 3) return { group: '', version: parts[1] ?? '', rest: parts.slice(2) };
  if (parts[0] === 'apis' && parts.length >= 4) return { group: parts[1] ?? '', version: parts[2] ?? '', rest: parts.slice(3) };
  return undefined;
}

function checkSegments(segments: readonly string[]): void {
  for (const segment of segments) {
    if (SEGMENT.test(segment) && !segment.includes('..')) continue;
    const message = `invalid path segment ${JSON.stringify(segment)}`;
    throw new BadRequestError(message, { causes: [{ field: 'metadata.name', reason: 'FieldValueInvalid', message }] });
  }
}

/**
 * Parses `/api/v1/...` and `/apis/{group}/{version}/...` resource paths. Returns undefined for
 * paths that are not resource paths (discovery and the like); throws for resource paths that are
 * malformed or name an unknown resource.
 */
export function parseResourcePath(path: string, kinds: KindRegistry): ResourcePath | undefined {
  const prefix = splitApiPrefix(path);
  if (!prefix) return undefined;
  const { group, version } = prefix;
  checkSegments(prefix.rest);
  const namespaced = prefix.rest[0] === 'namespaces' && prefix.rest.length >= 3;
  const namespace = namespaced ? prefix.rest[1] : undefined;
  const [plural, name, subresource, ...extra] = namespaced ? prefix.rest.slice(2) : prefix.rest;
  if (!plural || extra.length > 0) throw new NotFoundError(`the server could not find the requested resource (${path})`);
  const info = kinds.byResource(group, plural);
  if (!info?.versions.includes(version)) {
    throw new NotFoundError(`the server could not find the requested resource: ${plural}${group ? `.${group}` : ''}/${version}`);
  }
  if (subresource !== undefined && (subresource !== 'status' || !info.statusSubresource)) {
    throw new NotFoundError(`the server could not find the requested resource: ${plural}/${subresource}`);
  }
  return {
    info,
    version,
    ...(namespace !== undefined ? { namespace } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(subresource === 'status' ? { subresource: 'status' as const } : {}),
  };
}

export function apiVersionOf(info: KindInfo, version: string): string {
  return info.group ? `${info.group}/${version}` : version;
}

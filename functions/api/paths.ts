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

/**
 * Parses `/api/v1/...` and `/apis/{group}/{version}/...` resource paths. Returns undefined for
 * paths that are not resource paths (discovery and the like); throws for resource paths that are
 * malformed or name an unknown resource.
 */
export function parseResourcePath(path: string, kinds: KindRegistry): ResourcePath | undefined {
  const parts = path.split('/').slice(1);
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) {
    group = '';
    version = parts[1] ?? '';
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1] ?? '';
    version = parts[2] ?? '';
    rest = parts.slice(3);
  } else {
    return undefined;
  }
  for (const segment of rest) {
    if (!SEGMENT.test(segment) || segment.includes('..')) {
      throw new BadRequestError(`invalid path segment ${JSON.stringify(segment)}`, {
        causes: [{ field: 'metadata.name', reason: 'FieldValueInvalid', message: `invalid path segment ${JSON.stringify(segment)}` }],
      });
    }
  }
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [plural, name, subresource, ...extra] = rest;
  if (!plural || extra.length > 0) throw new NotFoundError(`the server could not find the requested resource (${path})`);
  const info = kinds.byResource(group, plural);
  if (!info || !info.versions.includes(version)) {
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

import { CLUSTER_SCOPE_NAMESPACE } from '../../shared/contracts/object.js';
import { BadRequestError, NotFoundError } from '../../shared/errors/index.js';
import type { KindInfo, KindRegistry } from '../../shared/contracts/kinds.js';

/** A request for objects of one kind, parsed from a Kubernetes REST path. */
export interface ResourcePath {
  info: KindInfo;
  version: string;
  /** Undefined for a list across all namespaces. */
  namespace?: string;
  name?: string;
  subresource?: Subresource;
}

export type Subresource = 'status' | 'scale';

function servedSubresource(info: KindInfo, subresource: string): Subresource | undefined {
  if (subresource === 'status' && info.statusSubresource) return 'status';
  if (subresource === 'scale' && info.scale !== undefined) return 'scale';
  return undefined;
}

const SEGMENT = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

interface ApiPrefix {
  group: string;
  version: string;
  rest: string[];
}

/**
 * Splits the raw (still percent-encoded) path on `/` first and decodes each segment after, so an
 * encoded `%2f` can never make a segment into two and `%2e%2e` is a segment named `..` (refused),
 * never a step up.
 */
function pathSegments(path: string): string[] {
  return path.split('/').slice(1).map((raw) => {
    try {
      return decodeURIComponent(raw);
    } catch {
      throw new BadRequestError(`invalid percent-encoding in path segment ${JSON.stringify(raw)}`);
    }
  });
}

/** `/api/v1/<rest>` or `/apis/<group>/<version>/<rest>`, else undefined. */
function splitApiPrefix(path: string): ApiPrefix | undefined {
  const parts = pathSegments(path);
  if (parts[0] === 'api' && parts.length >= 3) return { group: '', version: parts[1] ?? '', rest: parts.slice(2) };
  if (parts[0] === 'apis' && parts.length >= 4) return { group: parts[1] ?? '', version: parts[2] ?? '', rest: parts.slice(3) };
  return undefined;
}

/** Longest object name Kubernetes accepts (a DNS-1123 subdomain); namespaces are DNS-1123 labels (63). */
export const MAX_NAME_LENGTH = 253;

function checkSegments(segments: readonly string[]): void {
  for (const segment of segments) {
    const shown = segment.length > 64 ? `${segment.slice(0, 64)}…` : segment;
    if (segment.length > MAX_NAME_LENGTH) {
      const message = `must be no more than ${MAX_NAME_LENGTH} characters`;
      throw new BadRequestError(`invalid path segment ${JSON.stringify(shown)}: ${message}`, { causes: [{ field: 'metadata.name', reason: 'FieldValueInvalid', message }] });
    }
    if (SEGMENT.test(segment) && !segment.includes('..')) continue;
    const message = `invalid path segment ${JSON.stringify(shown)}`;
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
  if (namespace !== undefined && namespace.length > 63) {
    const message = 'must be no more than 63 characters';
    throw new BadRequestError(`invalid namespace in the path: ${message}`, { causes: [{ field: 'metadata.namespace', reason: 'FieldValueInvalid', message }] });
  }
  const [plural, name, subresource, ...extra] = namespaced ? prefix.rest.slice(2) : prefix.rest;
  if (!plural || extra.length > 0) throw new NotFoundError(`the server could not find the requested resource (${path})`);
  const info = kinds.byResource(group, plural);
  if (!info?.versions.includes(version)) {
    throw new NotFoundError(`the server could not find the requested resource: ${plural}${group ? `.${group}` : ''}/${version}`);
  }
  const scope = storeNamespace(info, plural, namespace, name);
  const served = subresource === undefined ? undefined : servedSubresource(info, subresource);
  if (subresource !== undefined && served === undefined) {
    throw new NotFoundError(`the server could not find the requested resource: ${plural}/${subresource}`);
  }
  return {
    info,
    version,
    ...(scope !== undefined ? { namespace: scope } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(served !== undefined ? { subresource: served } : {}),
  };
}

/** Cluster-scoped objects live under one store namespace; their paths name none. */
function storeNamespace(info: KindInfo, plural: string, namespace: string | undefined, name: string | undefined): string | undefined {
  if (info.namespaced) return namespace;
  if (namespace !== undefined) {
    throw new NotFoundError(`the server could not find the requested resource: ${plural} is cluster-scoped (no /namespaces/ in its path)`);
  }
  return name !== undefined ? CLUSTER_SCOPE_NAMESPACE : undefined;
}

export function apiVersionOf(info: KindInfo, version: string): string {
  return info.group ? `${info.group}/${version}` : version;
}

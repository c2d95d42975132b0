import type { KindInfo } from '../../../shared/contracts/kinds.js';
import { BadRequestError, MethodNotAllowedError } from '../../../shared/errors/index.js';
import type { StoredObject } from '../../../shared/contracts/object.js';
import type { ListQuery, ObjectStore } from '../../../shared/ports/object-store.js';
import { parseLabelSelector } from '../../../shared/store/label-selector.js';
import type { Principal } from '../auth.js';
import { type ApiRequest, type ApiResponse, jsonResponse } from '../http.js';
import { type ResourcePath, apiVersionOf } from '../paths.js';
import { visibleTo } from '../secret-access.js';
import { negotiate, type Representation } from '../representation/accept.js';
import { tableOf } from '../representation/table.js';
import type { WatchHub } from '../watch/watch-hub.js';
import { isWatch, parseWatchOptions } from '../watch/watch-options.js';
import { presentAs } from './present.js';

/** Largest page a list returns at once; a larger `limit` gets this many and a continue token. */
export const MAX_LIST_PAGE = 10_000;

/** `metadata.name` and `metadata.namespace` values that can name an object (longer ones match nothing). */
const MAX_SELECTED_NAME = 253;
const MAX_SELECTED_NAMESPACE = 63;

/** GET on a collection: label and field selectors, paging; Secret data never appears. With `watch=true`, a watch. */
export async function list(request: ApiRequest, path: ResourcePath, principal: Principal, store: ObjectStore, watches?: WatchHub): Promise<ApiResponse> {
  const representation = negotiate(request.headers.accept, request.query, true);
  if (isWatch(request.query)) return watch(request, path, principal, store, watches, representation);
  // The position is taken before the read: a watch from it sees every change the list may have missed.
  const resourceVersion = watches?.listResourceVersion() ?? '';
  const query = listQuery(request, path);
  const result = query ? await store.list(query) : { items: [] };
  const metadata = { resourceVersion, ...(result.continue ? { continue: result.continue } : {}) };
  const items = result.items.map((item) => visibleTo(presentAs(item, path.info), path.info, principal, true));
  if (representation.kind === 'table') return jsonResponse(200, tableOf(path.info, items, representation, metadata, Date.now()));
  return jsonResponse(200, { apiVersion: apiVersionOf(path.info, path.version), kind: `${path.info.kind}List`, metadata, items });
}

function watch(
  request: ApiRequest,
  path: ResourcePath,
  principal: Principal,
  store: ObjectStore,
  watches: WatchHub | undefined,
  representation: Representation,
): Promise<ApiResponse> {
  if (!watches) {
    throw new MethodNotAllowedError(
      "watch is not served on this endpoint: send the same request to the stack's ApiFrontDoorUrl output (JWT mode, ADR 0125) or to its WatchUrl output (IAM mode: SigV4 for the lambda service, ADR 0080)",
    );
  }
  const options = parseWatchOptions(request.query);
  const listed = listQuery(request, path);
  const query = listed ? withoutPaging(listed) : undefined;
  const visible = (object: StoredObject) => visibleTo(presentAs(object, path.info), path.info, principal, true);
  const present =
    representation.kind === 'table' ? (object: StoredObject) => tableOf(path.info, [visible(object)], representation, {}, Date.now()) : visible;
  const presentation = representation.kind === 'table' ? `table:${representation.includeObject}` : 'object';
  const filter = {
    info: path.info,
    ...(query?.namespace !== undefined ? { namespace: query.namespace } : {}),
    ...(query?.name !== undefined ? { name: query.name } : {}),
    ...(query?.labelSelector ? { labelSelector: query.labelSelector } : {}),
    ...(query ? {} : { matchesNothing: true }),
  };
  return watches.open({ filter, ...(query ? { query } : {}), options, present, presentation }, store);
}

function withoutPaging(query: ListQuery): ListQuery {
  const { limit: _limit, continue: _continue, ...rest } = query;
  return rest;
}

/** The store query for a list request, or undefined when the selectors can match nothing. */
function listQuery(request: ApiRequest, path: ResourcePath): ListQuery | undefined {
  const query: ListQuery = { group: path.info.group, kind: path.info.kind };
  if (path.namespace !== undefined) query.namespace = path.namespace;
  const selector = request.query.get('labelSelector');
  if (selector) query.labelSelector = parseLabelSelector(selector);
  if (!applyFieldSelector(request.query.get('fieldSelector'), query, path.info)) return undefined;
  const limit = parseLimit(request.query.get('limit'));
  if (limit !== undefined) query.limit = limit;
  const token = request.query.get('continue');
  if (token) query.continue = token;
  return query;
}

function parseLimit(limit: string | null): number | undefined {
  if (!limit) return undefined;
  const n = Number(limit);
  if (!/^[0-9]+$/.test(limit) || !Number.isSafeInteger(n)) {
    throw new BadRequestError(`limit must be a non-negative integer, got ${JSON.stringify(limit.slice(0, 64))}`, {
      causes: [{ field: 'limit', reason: 'FieldValueInvalid', message: 'must be a non-negative integer' }],
    });
  }
  return n === 0 ? undefined : Math.min(n, MAX_LIST_PAGE);
}

/** Applies `metadata.name` and `metadata.namespace` terms; false when they can match no object. */
function applyFieldSelector(selector: string | null, query: ListQuery, info: KindInfo): boolean {
  if (!selector) return true;
  let satisfiable = true;
  for (const term of selector.split(',')) satisfiable = applyFieldTerm(term, query, info) && satisfiable;
  return satisfiable;
}

function applyFieldTerm(term: string, query: ListQuery, info: KindInfo): boolean {
  const match = /^(metadata\.name|metadata\.namespace)(==|=)(.*)$/.exec(term.trim());
  if (!match) {
    throw new BadRequestError(`field selector ${JSON.stringify(term.slice(0, 256))} is not supported: only metadata.name and metadata.namespace`, {
      causes: [{ field: 'fieldSelector', reason: 'FieldValueNotSupported', message: term.slice(0, 256) }],
    });
  }
  const value = match[3] ?? '';
  if (match[1] === 'metadata.name') {
    if (value === '') {
      throw new BadRequestError('field selector "metadata.name=" needs a name: no object has an empty name', {
        causes: [{ field: 'fieldSelector', reason: 'FieldValueRequired', message: 'metadata.name needs a value' }],
      });
    }
    const conflicting = query.name !== undefined && query.name !== value;
    query.name = value;
    return value.length <= MAX_SELECTED_NAME && !conflicting;
  }
  // Namespaced kinds have no object with an empty namespace; cluster-scoped ones none with another.
  const conflicting = query.namespace !== undefined && query.namespace !== value;
  if (value !== '') query.namespace = value;
  return (value === '') === !info.namespaced && value.length <= MAX_SELECTED_NAMESPACE && !conflicting;
}

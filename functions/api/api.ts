import type { KindRegistry } from '../../shared/contracts/kinds.js';
import { NotFoundError } from '../../shared/errors/index.js';
import type { Logger } from '../../shared/ports/logger.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import type { Admission } from './admission-port.js';
import type { Authenticator } from './auth.js';
import { type ApiRequest, type ApiResponse, jsonResponse } from './http.js';
import { parseResourcePath } from './paths.js';
import { apiGroupDocument, apiGroupList, apiResourceList, coreApiVersions, versionInfo } from './routes/discovery.js';
import { builtinOpenApi, openApiV2 } from './routes/openapi.js';
import { type CrdDeps, crdResponse } from './routes/crds.js';
import { handleResource } from './routes/resources.js';
import { selfReviewResponse } from './routes/self-reviews.js';
import { errorResponse } from './status.js';
import type { WatchHub } from './watch/watch-hub.js';

export interface ApiDeps {
  store: ObjectStore;
  kinds: KindRegistry;
  admission: Admission;
  authenticate: Authenticator;
  logger: Logger;
  /** The contract and provider of each kind, for the served CRDs' labels. */
  contracts?: CrdDeps['contracts'];
  /** Serves `watch=true` from the store's change feed (embedded mode); absent behind API Gateway. */
  watches?: WatchHub;
  /** OpenAPI documents by path (`/openapi/v3`, `/openapi/v3/apis/g/v`, `/openapi/v2`), if served. */
  openApi?: (path: string) => unknown | undefined;
}

/**
 * The management API: Kubernetes REST conventions over the object store. The Lambda handler and
 * the embedded server both call this; neither adds logic of its own.
 */
export async function handleApiRequest(request: ApiRequest, deps: ApiDeps): Promise<ApiResponse> {
  try {
    if (request.path === '/readyz' || request.path === '/healthz' || request.path === '/livez') {
      return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' };
    }
    const principal = deps.authenticate(request);
    const discovery = discoveryResponse(request, deps);
    if (discovery) return discovery;
    const crds = crdResponse(request, deps);
    if (crds) return crds;
    const review = selfReviewResponse(request, principal, deps.kinds);
    if (review) return review;
    const resource = parseResourcePath(request.path, deps.kinds);
    if (!resource) throw new NotFoundError(`the server could not find the requested resource (${request.method} ${request.path})`);
    return await handleResource(request, resource, principal, deps);
  } catch (error) {
    const response = errorResponse(error);
    if (response.status >= 500) deps.logger.error('api request failed', { method: request.method, path: request.path, error: String(error) });
    return response;
  }
}

function discoveryResponse(request: ApiRequest, deps: ApiDeps): ApiResponse | undefined {
  if (request.method !== 'GET') return undefined;
  const path = request.path.replace(/\/+$/, '') || '/';
  if (path === '/version') return versionInfo();
  if (path === '/api') return coreApiVersions();
  if (path === '/apis') return apiGroupList(deps.kinds);
  if ((path === '/openapi/v2' || path === '/swagger-2.0.0.pb-v1') && !deps.openApi) {
    return openApiV2(deps.kinds, request.headers.accept);
  }
  if (path.startsWith('/openapi/')) {
    const document = deps.openApi ? deps.openApi(path) : builtinOpenApi(deps.kinds, path);
    if (document === undefined) throw new NotFoundError(`no OpenAPI document at ${path}`);
    return jsonResponse(200, document);
  }
  const core = /^\/api\/(v1)$/.exec(path);
  if (core?.[1]) return apiResourceList(deps.kinds, '', core[1]);
  const groupOnly = /^\/apis\/([^/]+)$/.exec(path);
  if (groupOnly?.[1]) return apiGroupDocument(deps.kinds, groupOnly[1]) ?? notFound(path);
  const groupVersion = /^\/apis\/([^/]+)\/([^/]+)$/.exec(path);
  if (groupVersion?.[1] && groupVersion[2]) return apiResourceList(deps.kinds, groupVersion[1], groupVersion[2]) ?? notFound(path);
  return undefined;
}

function notFound(path: string): never {
  throw new NotFoundError(`the server could not find the requested resource (${path})`);
}

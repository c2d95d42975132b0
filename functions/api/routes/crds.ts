import { inventoryName } from '../../../shared/contracts/clusterctl/inventory.js';
import {
  CRD_API_VERSION,
  type CrdLabelOptions,
  crdLabels,
  crdName,
  customResourceDefinition,
  isCustomResource,
} from '../../../shared/contracts/crds/custom-resource-definition.js';
import type { KindInfo, KindRegistry } from '../../../shared/contracts/kinds.js';
import type { ProviderLookup } from '../../../shared/contracts/providers/provider-lookup.js';
import { MethodNotAllowedError, NotFoundError } from '../../../shared/errors/index.js';
import { matchesLabelSelector, parseLabelSelector } from '../../../shared/store/label-selector.js';
import { type ApiRequest, type ApiResponse, jsonResponse } from '../http.js';
import { negotiate } from '../representation/accept.js';
import { isWatch } from '../watch/watch-options.js';

export const CRD_GROUP = 'apiextensions.k8s.io';
const COLLECTION = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** When the server started: the CRDs' creationTimestamp (they exist as long as it serves them). */
const SERVED_SINCE = new Date().toISOString().replace(/\.\d+Z$/, 'Z');

export interface CrdDeps {
  kinds: KindRegistry;
  /**
   * The contract each provider kind follows (the CRDs' contract labels; without it labels follow
   * the versions) and the provider that serves it (clusterctl's labels).
   */
  contracts?: Pick<ProviderLookup, 'contractFor' | 'providerOf' | 'providerTypeOf'>;
}

/**
 * `apiextensions.k8s.io/v1` CustomResourceDefinitions, read-only: one per kind capless serves
 * outside the core group, generated from the kind's registration and schema. Undefined for any
 * other path.
 */
export function crdResponse(request: ApiRequest, deps: CrdDeps): ApiResponse | undefined {
  const path = request.path.replace(/\/+$/, '');
  if (path !== COLLECTION && !path.startsWith(`${COLLECTION}/`)) return undefined;
  const name = path === COLLECTION ? undefined : decodeSegment(path.slice(COLLECTION.length + 1));
  if (request.method !== 'GET') throw new MethodNotAllowedError(`CustomResourceDefinitions are read-only here: ${request.method} is not allowed`);
  if (isWatch(request.query)) throw new MethodNotAllowedError('CustomResourceDefinitions cannot be watched: they do not change while the server runs');
  negotiate(request.headers.accept, request.query, false);
  const all = deps.kinds.all().filter(isCustomResource).sort((a, b) => crdName(a).localeCompare(crdName(b)));
  const build = (info: (typeof all)[number]) => customResourceDefinition(info, { creationTimestamp: SERVED_SINCE, ...labelOptions(deps, info) });
  if (name !== undefined) {
    const info = all.find((k) => crdName(k) === name);
    if (!info) throw new NotFoundError(`customresourcedefinitions.apiextensions.k8s.io "${name.slice(0, 253)}" not found`, { details: { group: CRD_GROUP, kind: 'customresourcedefinitions', name: name.slice(0, 253) } });
    return jsonResponse(200, build(info));
  }
  const selector = request.query.get('labelSelector');
  const terms = selector ? parseLabelSelector(selector) : [];
  const items = all.filter((info) => matchesLabelSelector(crdLabels(info, labelOptions(deps, info)), terms)).map(build);
  return jsonResponse(200, { apiVersion: CRD_API_VERSION, kind: 'CustomResourceDefinitionList', metadata: { resourceVersion: '1' }, items });
}

/**
 * The CRD's contract and provider. A kind no provider declares is Cluster API core's (its
 * IPAddressClaim, IPAddress and MachinePool CRDs ship with the core provider).
 */
function labelOptions(deps: CrdDeps, info: KindInfo): CrdLabelOptions {
  const contract = deps.contracts?.contractFor(info.group, info.kind)?.contractVersion;
  const name = deps.contracts?.providerOf(info.group, info.kind);
  const type = deps.contracts?.providerTypeOf(info.group, info.kind);
  const provider = name !== undefined && type !== undefined ? inventoryName(type, name) : inventoryName('CoreProvider', '');
  return { ...(contract ? { contract } : {}), ...(deps.contracts ? { provider } : {}) };
}

function decodeSegment(raw: string): string {
  if (raw.includes('/')) throw new NotFoundError('the server could not find the requested resource');
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new NotFoundError('the server could not find the requested resource');
  }
}

/** The discovery entries of the apiextensions.k8s.io group. */
export const CRD_RESOURCE = {
  name: 'customresourcedefinitions',
  singularName: 'customresourcedefinition',
  namespaced: false,
  kind: 'CustomResourceDefinition',
  verbs: ['get', 'list'],
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
};

import type { KindInfo, KindRegistry } from '../../../shared/contracts/kinds.js';
import { type ApiResponse, jsonResponse } from '../http.js';
import { CRD_GROUP, CRD_RESOURCE } from './crds.js';
import { REVIEW_RESOURCES } from './self-reviews.js';

/** `/version`: what kubectl prints as the server version. */
export function versionInfo(): ApiResponse {
  return jsonResponse(200, {
    major: '1',
    minor: '32',
    gitVersion: 'v1.32.0-capless.0.1.0',
    gitCommit: 'capless',
    gitTreeState: 'clean',
    buildDate: '2026-11-29T00:00:00Z',
    goVersion: 'node',
    compiler: 'capless',
    platform: `${process.platform}/${process.arch}`,
  });
}

export function coreApiVersions(): ApiResponse {
  return jsonResponse(200, { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '' }] });
}

const CRD_GROUP_ENTRY = {
  name: CRD_GROUP,
  versions: [{ groupVersion: `${CRD_GROUP}/v1`, version: 'v1' }],
  preferredVersion: { groupVersion: `${CRD_GROUP}/v1`, version: 'v1' },
};

/** The groups of the self-review resources (authorization.k8s.io, authentication.k8s.io), v1 only. */
const REVIEW_GROUPS = [...new Set(REVIEW_RESOURCES.map((r) => r.group))].map((name) => ({
  name,
  versions: [{ groupVersion: `${name}/v1`, version: 'v1' }],
  preferredVersion: { groupVersion: `${name}/v1`, version: 'v1' },
}));

export function apiGroupList(kinds: KindRegistry): ApiResponse {
  const groups = [CRD_GROUP_ENTRY, ...REVIEW_GROUPS, ...kinds.groups().filter((g) => g !== '').map((g) => apiGroup(kinds, g))];
  return jsonResponse(200, { kind: 'APIGroupList', apiVersion: 'v1', groups });
}

export function apiGroupDocument(kinds: KindRegistry, group: string): ApiResponse | undefined {
  if (group === CRD_GROUP) return jsonResponse(200, { kind: 'APIGroup', apiVersion: 'v1', ...CRD_GROUP_ENTRY });
  const review = REVIEW_GROUPS.find((g) => g.name === group);
  if (review) return jsonResponse(200, { kind: 'APIGroup', apiVersion: 'v1', ...review });
  if (!kinds.groups().includes(group) || group === '') return undefined;
  return jsonResponse(200, { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(kinds, group) });
}

function apiGroup(kinds: KindRegistry, group: string) {
  const versions = versionsOf(kinds, group);
  const preferred = versions[0] ?? 'v1';
  return {
    name: group,
    versions: versions.map((v) => ({ groupVersion: `${group}/${v}`, version: v })),
    preferredVersion: { groupVersion: `${group}/${preferred}`, version: preferred },
  };
}

function versionsOf(kinds: KindRegistry, group: string): string[] {
  const ordered: string[] = [];
  for (const info of kinds.all().filter((k) => k.group === group)) {
    for (const v of info.versions) if (!ordered.includes(v)) ordered.push(v);
  }
  return ordered;
}

/** `/api/v1` or `/apis/{group}/{version}`: the resources served there. */
export function apiResourceList(kinds: KindRegistry, group: string, version: string): ApiResponse | undefined {
  if (group === CRD_GROUP) {
    return version === 'v1' ? jsonResponse(200, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${CRD_GROUP}/v1`, resources: [CRD_RESOURCE] }) : undefined;
  }
  const reviews = REVIEW_RESOURCES.filter((r) => r.group === group && r.version === version);
  if (reviews.length > 0) {
    const resources = reviews.map((r) => ({ name: r.plural, singularName: '', namespaced: false, kind: r.kind, verbs: ['create'] }));
    return jsonResponse(200, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${group}/${version}`, resources });
  }
  const served = kinds.all().filter((k) => k.group === group && k.versions.includes(version));
  if (served.length === 0) return undefined;
  const resources = served.flatMap((info) => resourceEntries(info));
  return jsonResponse(200, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group ? `${group}/${version}` : version, resources });
}

function resourceEntries(info: KindInfo) {
  const shortNames = info.shortNames ?? [];
  const main = {
    name: info.plural,
    singularName: info.kind.toLowerCase(),
    namespaced: info.namespaced,
    kind: info.kind,
    verbs: info.readOnly ? ['get', 'list', 'watch'] : ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    ...(shortNames.length > 0 ? { shortNames } : {}),
    ...(info.group === '' ? {} : { categories: ['cluster-api'] }),
  };
  if (info.readOnly) return [main];
  const subresource = { singularName: '', namespaced: info.namespaced, verbs: ['get', 'patch', 'update'] };
  return [
    main,
    ...(info.statusSubresource ? [{ name: `${info.plural}/status`, ...subresource, kind: info.kind }] : []),
    ...(info.scale ? [{ name: `${info.plural}/scale`, ...subresource, group: 'autoscaling', version: 'v1', kind: 'Scale' }] : []),
  ];
}

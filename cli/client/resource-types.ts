import { booleanAt, isRecord, stringAt } from '../../shared/contracts/json.js';
import { UsageError } from '../io/usage-error.js';
import type { ApiClient } from './api-client.js';

/** A served resource, as discovery describes it. */
export interface ResourceType {
  group: string;
  version: string;
  kind: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
}

/**
 * Resolves what users type (`cluster`, `clusters`, `clusters.cluster.x-k8s.io`, `kcp`, `md`,
 * `KubeadmControlPlane`) and what manifests say (apiVersion + kind) to resource types, from
 * discovery (`/api/v1`, `/apis`, `/apis/{group}/{version}`), fetched once.
 */
export class ResourceTypes {
  private types: Promise<ResourceType[]> | undefined;

  constructor(private readonly client: ApiClient) {}

  all(): Promise<ResourceType[]> {
    this.types ??= discover(this.client);
    return this.types;
  }

  async resolve(name: string): Promise<ResourceType> {
    const found = matchResourceName(await this.all(), name);
    if (!found) throw new UsageError(`the server doesn't have a resource type "${name}"`);
    return found;
  }

  async forKind(apiVersion: string, kind: string): Promise<ResourceType> {
    const slash = apiVersion.indexOf('/');
    const group = slash === -1 ? '' : apiVersion.slice(0, slash);
    const version = slash === -1 ? apiVersion : apiVersion.slice(slash + 1);
    const types = await this.all();
    const sameKind = types.filter((t) => t.group === group && t.kind === kind);
    const found = sameKind.find((t) => t.version === version) ?? sameKind[0];
    if (!found) throw new UsageError(`no matches for kind "${kind}" in version "${apiVersion}"`);
    return { ...found, version: sameKind.some((t) => t.version === version) ? version : found.version };
  }

  async forGroupKind(group: string, kind: string): Promise<ResourceType | undefined> {
    return (await this.all()).find((t) => t.group === group && t.kind === kind);
  }
}

/** Pure name matching; groups in discovery order, preferred versions only. */
export function matchResourceName(types: readonly ResourceType[], typed: string): ResourceType | undefined {
  const lower = typed.toLowerCase();
  const dot = lower.indexOf('.');
  const candidates: Array<[string, string | undefined]> = [[lower, undefined]];
  if (dot !== -1) candidates.push([lower.slice(0, dot), lower.slice(dot + 1)]);
  for (const [name, group] of candidates) {
    const found = types.find(
      (t) =>
        (group === undefined || t.group === group) &&
        (t.plural === name || t.singular === name || t.kind.toLowerCase() === name || t.shortNames.includes(name)),
    );
    if (found) return found;
  }
  return undefined;
}

async function discover(client: ApiClient): Promise<ResourceType[]> {
  const lists: Array<{ group: string; version: string; body: unknown }> = [{ group: '', version: 'v1', body: await client.get('/api/v1') }];
  const groups = await client.get('/apis');
  const preferred = arrayAt(groups, 'groups').flatMap((g) => {
    const name = stringAt(g, 'name');
    const version = stringAt(g, 'preferredVersion', 'version');
    return name && version ? [{ group: name, version }] : [];
  });
  const bodies = await Promise.all(preferred.map(({ group, version }) => client.get(`/apis/${group}/${version}`)));
  for (const [i, { group, version }] of preferred.entries()) lists.push({ group, version, body: bodies[i] });
  return lists.flatMap(({ group, version, body }) =>
    arrayAt(body, 'resources').flatMap((r): ResourceType[] => {
      const plural = stringAt(r, 'name');
      const kind = stringAt(r, 'kind');
      if (!plural || !kind || plural.includes('/')) return [];
      const shortNames = arrayAt(r, 'shortNames').filter((s): s is string => typeof s === 'string');
      return [{ group, version, kind, plural, singular: stringAt(r, 'singularName') || kind.toLowerCase(), namespaced: booleanAt(r, 'namespaced') ?? true, shortNames }];
    }),
  );
}

function arrayAt(value: unknown, key: string): unknown[] {
  const found = isRecord(value) ? value[key] : undefined;
  return Array.isArray(found) ? found : [];
}

/** `/api/v1/namespaces/ns/secrets/name` or `/apis/g/v/namespaces/ns/plural/name`; no namespace lists across all. */
export function resourcePath(type: ResourceType, namespace?: string, name?: string): string {
  const root = type.group ? `/apis/${type.group}/${type.version}` : `/api/${type.version}`;
  const ns = type.namespaced && namespace !== undefined ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${root}${ns}/${type.plural}${name !== undefined ? `/${encodeURIComponent(name)}` : ''}`;
}

/** How kubectl names a type in messages: `cluster.cluster.x-k8s.io`. */
export function qualifiedName(type: ResourceType): string {
  return type.group ? `${type.kind.toLowerCase()}.${type.group}` : type.kind.toLowerCase();
}

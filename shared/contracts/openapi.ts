/**
 * OpenAPI v3 documents per group/version, as served at `/openapi/v3/apis/<group>/<version>`
 * (`/openapi/v3/api/v1` for the core group) and read by kubectl and @kubernetes/client-node.
 * Generated from the zod schemas, never written by hand; the field descriptions are Cluster API's
 * own (shared/contracts/crds/crd-descriptions.ts).
 */

import { z } from 'zod';
import { applyDescriptions, crdDescriptions } from './crds/crd-descriptions.js';
import { isRecord, type JsonRecord } from './json.js';
import { defaultKinds, type KindInfo, type KindRegistry } from './kinds.js';
import { schemaFor } from './schemas/catalog.js';

export interface OpenApiDocument {
  openapi: '3.0.0';
  info: { title: string; version: string };
  paths: Record<string, never>;
  components: { schemas: Record<string, JsonRecord> };
}

/** `cluster.x-k8s.io` → `io.x-k8s.cluster`; the core group is `io.k8s.api.core`. */
export function schemaNamePrefix(group: string): string {
  return group === '' ? 'io.k8s.api.core' : group.split('.').reverse().join('.');
}

export function schemaName(group: string, version: string, kind: string): string {
  return `${schemaNamePrefix(group)}.${version}.${kind}`;
}

/** Open maps (`additionalProperties: {}`) are what CRDs call preserve-unknown-fields. */
function markOpenObjects(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) markOpenObjects(item);
    return;
  }
  if (!isRecord(node)) return;
  const extra = node.additionalProperties;
  if (extra === true || (isRecord(extra) && Object.keys(extra).length === 0)) {
    node['x-kubernetes-preserve-unknown-fields'] = true;
  }
  for (const value of Object.values(node)) markOpenObjects(value);
}

/** The structural schema of a kind in one served version: the storage version's in full, older ones loosely. */
export function openApiSchemaOf(info: KindInfo, version: string): JsonRecord {
  return info.versions[0] === version ? storageSchema(info) : convertibleSchema();
}

function storageSchema(info: KindInfo): JsonRecord {
  const generated = z.toJSONSchema(schemaFor(info.group, info.kind), {
    target: 'openapi-3.0',
    io: 'input',
    unrepresentable: 'any',
  });
  const { $schema: _ignored, ...schema } = generated;
  markOpenObjects(schema);
  const descriptions = crdDescriptions(info.group, info.kind);
  if (descriptions) applyDescriptions(schema, descriptions);
  return schema;
}

/** Older served versions are converted on admission; their shape is published loosely. */
function convertibleSchema(): JsonRecord {
  return {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    },
    'x-kubernetes-preserve-unknown-fields': true,
  };
}

/** The document for one group/version, or undefined when no kind is served there. */
export function openApiV3ForGroupVersion(
  group: string,
  version: string,
  kinds: KindRegistry = defaultKinds,
): OpenApiDocument | undefined {
  const served = kinds.all().filter((info) => info.group === group && info.versions.includes(version));
  if (served.length === 0) return undefined;
  const schemas: Record<string, JsonRecord> = {};
  for (const info of served) {
    const body = openApiSchemaOf(info, version);
    schemas[schemaName(group, version, info.kind)] = {
      ...body,
      'x-kubernetes-group-version-kind': [{ group, version, kind: info.kind }],
    };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'capless', version: version },
    paths: {},
    components: { schemas },
  };
}

/** Every group/version some kind is served in, for the `/openapi/v3` discovery document. */
export function servedGroupVersions(kinds: KindRegistry = defaultKinds): { group: string; version: string }[] {
  const seen = new Map<string, { group: string; version: string }>();
  for (const info of kinds.all()) {
    for (const version of info.versions) seen.set(`${info.group}/${version}`, { group: info.group, version });
  }
  return [...seen.values()];
}

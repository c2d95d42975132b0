import { openApiV3ForGroupVersion } from '../../../shared/contracts/openapi.js';
import type { KindInfo, KindRegistry } from '../../../shared/contracts/kinds.js';

/**
 * The OpenAPI v3 discovery kubectl reads before `apply`/`create`: `/openapi/v3` lists a document
 * per group-version, and each document declares, per kind, the PATCH operation with the
 * `fieldValidation` (and `dryRun`) query parameters. Seeing them, kubectl validates on the server
 * (`?fieldValidation=Strict`) instead of downloading schemas. Schemas themselves are not served.
 */
export function builtinOpenApi(kinds: KindRegistry, path: string): unknown | undefined {
  if (path === '/openapi/v3') return openApiRoot(kinds);
  const match = /^\/openapi\/v3\/(api\/v1|apis\/[^/]+\/[^/]+)$/.exec(path);
  if (!match?.[1]) return undefined;
  const served = servedAt(kinds, match[1]);
  return served.length === 0 ? undefined : groupVersionDocument(match[1], served, kinds);
}

function groupVersionPaths(kinds: KindRegistry): string[] {
  const paths = new Set<string>();
  for (const info of kinds.all()) for (const version of info.versions) paths.add(groupVersionPath(info, version));
  return [...paths];
}

function groupVersionPath(info: KindInfo, version: string): string {
  return info.group ? `apis/${info.group}/${version}` : `api/${version}`;
}

function openApiRoot(kinds: KindRegistry) {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const gv of groupVersionPaths(kinds)) paths[gv] = { serverRelativeURL: `/openapi/v3/${gv}` };
  return { paths };
}

function servedAt(kinds: KindRegistry, gvPath: string): Array<{ info: KindInfo; version: string }> {
  return kinds.all().flatMap((info) => info.versions.filter((v) => groupVersionPath(info, v) === gvPath).map((version) => ({ info, version })));
}

const QUERY_PARAMS = ['dryRun', 'fieldManager', 'fieldValidation', 'force'].map((name) => ({
  name,
  in: 'query',
  schema: { type: name === 'force' ? 'boolean' : 'string', uniqueItems: true },
}));

function groupVersionDocument(gvPath: string, served: Array<{ info: KindInfo; version: string }>, kinds: KindRegistry) {
  const paths: Record<string, unknown> = {};
  for (const { info, version } of served) {
    const gvk = { group: info.group, version, kind: info.kind };
    const base = `/${gvPath}${info.namespaced ? '/namespaces/{namespace}' : ''}/${info.plural}`;
    const operation = (verb: string) => ({
      operationId: `${verb}${info.kind}`,
      parameters: QUERY_PARAMS,
      responses: { '200': { description: 'OK' } },
      'x-kubernetes-action': verb,
      'x-kubernetes-group-version-kind': gvk,
    });
    paths[base] = { get: operation('list'), post: operation('post') };
    paths[`${base}/{name}`] = { get: operation('get'), put: operation('put'), patch: operation('patch'), delete: operation('delete') };
  }
  const first = served[0];
  const generated = first ? openApiV3ForGroupVersion(first.info.group, first.version, kinds) : undefined;
  return {
    openapi: '3.0.0',
    info: { title: 'capless', version: gvPath },
    paths,
    // Schemas are generated from the zod schemas in shared/contracts, never written by hand.
    components: { schemas: generated?.components.schemas ?? {} },
  };
}

/**
 * `/openapi/v2`: an empty Swagger 2.0 document (no definitions). kubectl before 1.27 downloads it
 * for client-side validation and asks for protobuf (gnostic `openapi_v2.Document`); kinds it finds
 * no schema for pass, so the server's admission is what validates. The protobuf form is
 * hand-encoded: swagger (field 1) = "2.0", info (2) = {title (1), version (2)}, paths (8) = {}.
 */
export function openApiV2(acceptHeader: string | undefined): { contentType: string; body: string } {
  if ((acceptHeader ?? '').includes('protobuf')) {
    const field = (tag: number, bytes: string) => String.fromCharCode(tag, bytes.length) + bytes;
    const info = field(0x0a, 'capless') + field(0x12, 'v2');
    return { contentType: 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf', body: field(0x0a, '2.0') + field(0x12, info) + field(0x42, '') };
  }
  return { contentType: 'application/json', body: JSON.stringify({ swagger: '2.0', info: { title: 'capless', version: 'v2' }, paths: {}, definitions: {} }) };
}

import { openApiV2Document, type SwaggerDocument } from '../../../shared/contracts/openapi-v2/document.js';
import { encodeSwaggerDocument } from '../../../shared/contracts/openapi-v2/gnostic-protobuf.js';
import { openApiV3ForGroupVersion } from '../../../shared/contracts/openapi.js';
import type { ApiResponse } from '../http.js';
import type { KindInfo, KindRegistry } from '../../../shared/contracts/kinds.js';

/**
 * The OpenAPI v3 discovery kubectl reads before `apply`/`create`: `/openapi/v3` lists a document
 * per group-version, and each document declares, per kind, the PATCH operation with the
 * `fieldValidation` (and `dryRun`) query parameters. Seeing them, kubectl validates on the server
 * (`?fieldValidation=Strict`); the documents also carry each kind's schema, for `kubectl explain`.
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
 * `/openapi/v2`: the Swagger 2.0 document with a definition per served kind, which kubectl before
 * 1.27 reads for `explain` and client-side validation. kubectl asks for gnostic's protobuf
 * `openapi_v2.Document`; other clients get JSON.
 */
export function openApiV2(kinds: KindRegistry, acceptHeader: string | undefined): ApiResponse {
  const served = servedV2Of(kinds);
  if ((acceptHeader ?? '').includes('protobuf')) {
    served.protobuf ??= encodeSwaggerDocument(served.document);
    return { status: 200, headers: { 'content-type': 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf' }, body: '', bytes: served.protobuf };
  }
  served.json ??= JSON.stringify(served.document);
  return { status: 200, headers: { 'content-type': 'application/json' }, body: served.json };
}

interface ServedV2 {
  revision: number;
  document: SwaggerDocument;
  json?: string;
  protobuf?: Uint8Array;
}

/**
 * The v2 document and its encodings, built once per registry revision: every kubectl before 1.27
 * asks for it on each `explain` or validating `apply`, and building and encoding it took 60–80 ms
 * (`.scratch/openapi-time.mts`). A kind added later makes a new one.
 */
const servedV2 = new WeakMap<KindRegistry, ServedV2>();

function servedV2Of(kinds: KindRegistry): ServedV2 {
  const known = servedV2.get(kinds);
  if (known?.revision === kinds.revision) return known;
  const built: ServedV2 = { revision: kinds.revision, document: openApiV2Document(kinds) };
  servedV2.set(kinds, built);
  return built;
}

/**
 * The Swagger 2.0 document served at `/openapi/v2`, which kubectl before 1.27 reads for
 * `explain` and client-side validation. Its definitions are the v3 documents' schemas
 * (shared/contracts/openapi.ts, generated from the zod schemas), converted the way kube-apiserver
 * converts a CRD's (schema-conversion.ts), under the names it gives them.
 */

import type { JsonRecord } from '../json.js';
import { defaultKinds, type KindRegistry } from '../kinds.js';
import { openApiSchemaOf, schemaName } from '../openapi.js';
import { toOpenApiV2Schema } from './schema-conversion.js';

export interface SwaggerDocument {
  swagger: '2.0';
  info: { title: string; version: string };
  paths: Record<string, never>;
  definitions: Record<string, JsonRecord>;
}

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** One definition per kind and served version, e.g. `io.x-k8s.cluster.v1beta2.Cluster`. */
export function openApiV2Document(kinds: KindRegistry = defaultKinds): SwaggerDocument {
  const definitions: Record<string, JsonRecord> = {};
  for (const info of kinds.all()) {
    for (const version of info.versions) {
      const gvk: GroupVersionKind = { group: info.group, version, kind: info.kind };
      definitions[schemaName(info.group, version, info.kind)] = {
        ...toOpenApiV2Schema(openApiSchemaOf(info, version)),
        'x-kubernetes-group-version-kind': [gvk],
      };
    }
  }
  // kubectl reads definitions only; operations stay in the v3 documents.
  return { swagger: '2.0', info: { title: 'capless', version: 'v2' }, paths: {}, definitions };
}

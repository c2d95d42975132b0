/**
 * CAPA's templates/cluster-template.yaml from ../shared/capi-samples/capa/, with clusterctl's
 * `${VAR}` / `${VAR:-default}` placeholders filled in. Absent fixtures yield undefined so the
 * suites that need them can skip visibly.
 */

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

export const CAPA_SAMPLES = fileURLToPath(new URL('../../../shared/capi-samples/capa/', import.meta.url));
export const CAPA_TEMPLATE = `${CAPA_SAMPLES}cluster-template.yaml`;

export interface CapaTemplateVariables {
  CLUSTER_NAME: string;
  AWS_REGION: string;
  AWS_SSH_KEY_NAME: string;
  CONTROL_PLANE_MACHINE_COUNT: number;
  WORKER_MACHINE_COUNT: number;
  KUBERNETES_VERSION: string;
  AWS_CONTROL_PLANE_MACHINE_TYPE: string;
  AWS_NODE_MACHINE_TYPE: string;
}

export const DEFAULT_CAPA_VARIABLES: CapaTemplateVariables = {
  CLUSTER_NAME: 'capa',
  AWS_REGION: 'us-east-1',
  AWS_SSH_KEY_NAME: 'default',
  CONTROL_PLANE_MACHINE_COUNT: 3,
  WORKER_MACHINE_COUNT: 2,
  KUBERNETES_VERSION: 'v1.32.0',
  AWS_CONTROL_PLANE_MACHINE_TYPE: 't3.large',
  AWS_NODE_MACHINE_TYPE: 't3.large',
};

/** clusterctl's variable substitution: `${NAME}` and `${NAME:-default}`; an unset one without default is an error. */
export function substitute(text: string, variables: Readonly<Record<string, string | number>>): string {
  return text.replace(/\$\{([A-Z0-9_]+)(?::-([^}]*))?\}/g, (_match, name: string, fallback: string | undefined) => {
    const value = variables[name];
    if (value !== undefined) return String(value);
    if (fallback !== undefined) return fallback;
    throw new Error(`template variable ${name} is not set`);
  });
}

/** The template's documents with variables substituted, or undefined when the fixture is absent. */
export function capaTemplateDocuments(variables: Partial<CapaTemplateVariables> = {}): Record<string, unknown>[] | undefined {
  if (!existsSync(CAPA_TEMPLATE)) return undefined;
  const text = substitute(readFileSync(CAPA_TEMPLATE, 'utf8'), { ...DEFAULT_CAPA_VARIABLES, ...variables });
  return parseAllDocuments(text)
    .map((doc): unknown => doc.toJS())
    .filter((doc): doc is Record<string, unknown> => typeof doc === 'object' && doc !== null);
}

/**
 * Names of topology objects (Cluster API's internal/topology/names): the class's naming template
 * or the default, rendered with `missingkey=error` from `.cluster.name`, `.random` and
 * `.machineDeployment.topologyName`; past 63 characters the first 58 plus 5 random ones. Cluster
 * API draws `.random` at random; capless derives it from the Cluster's uid and the object's role,
 * so a reconcile that crashed after a create finds the same name again (no orphan, no duplicate).
 * Templates are named by their content: a changed template gets a new name (rotation), an
 * unchanged one keeps it.
 */

import { renderTemplate } from '../../../../shared/gotemplate/execute.js';
import { canonicalJson } from '../../engine/hashing/stable-hash.js';
import { createHash } from 'node:crypto';

/** apimachinery's util/rand alphabet (no vowels, no confusable digits). */
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const MAX_NAME = 63;

/** Five characters of the alphabet, derived from `seed`. */
export function derivedSuffix(seed: string): string {
  const bytes = createHash('sha256').update(seed).digest();
  let out = '';
  for (let i = 0; i < 5; i++) out += ALPHABET[(bytes[i] ?? 0) % ALPHABET.length];
  return out;
}

export const DEFAULT_CLUSTER_NAMING = '{{ .cluster.name }}-{{ .random }}';
export const DEFAULT_MACHINE_DEPLOYMENT_NAMING = '{{ .cluster.name }}-{{ .machineDeployment.topologyName }}-{{ .random }}';

export interface NameInput {
  template: string | undefined;
  fallback: string;
  clusterName: string;
  /** What makes `.random` unique (the Cluster's uid and the object's role). */
  seed: string;
  machineDeploymentTopologyName?: string;
}

/** Renders a naming template; throws TemplateError when it does not render. */
export function topologyObjectName(input: NameInput): string {
  const random = derivedSuffix(input.seed);
  const data = {
    cluster: { name: input.clusterName },
    random,
    ...(input.machineDeploymentTopologyName !== undefined ? { machineDeployment: { topologyName: input.machineDeploymentTopologyName } } : {}),
  };
  const name = renderTemplate(input.template ?? input.fallback, data, { missingKeyError: true });
  return name.length > MAX_NAME ? `${name.slice(0, MAX_NAME - 5)}${random}` : name;
}

/** `<prefix><5 chars of the content hash>`: the name of a cloned template with this content. */
export function templateName(prefix: string, content: unknown): string {
  const suffix = derivedSuffix(canonicalJson(content));
  const base = prefix.length + 5 > MAX_NAME ? prefix.slice(0, MAX_NAME - 5) : prefix;
  return `${base}${suffix}`;
}

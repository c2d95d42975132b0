/**
 * The in-memory ClusterClass and its clusterctl template for the topology end-to-end tests:
 * Cluster API's own examples from ../shared/capi-samples when they are beside the checkout (so
 * the tests also prove upstream manifests apply unchanged), else capless's own copies of the same
 * shape in test/fixtures/topology (so a clone on its own still tests topology and hooks).
 */

import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { isRecord } from '../../shared/contracts/json.js';
import type { KubeObject } from '../../shared/contracts/object.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const UPSTREAM = join(resolve(REPO_ROOT, '../shared'), 'capi-samples/examples');
const OWN = join(REPO_ROOT, 'test/fixtures/topology');

export const IN_MEMORY_CLASS_FILE = 'clusterclass-in-memory.yaml';
export const IN_MEMORY_TEMPLATE_FILE = 'cluster-template-in-memory.yaml';

/**
 * Where the in-memory class and template come from in this run. `CAPLESS_OWN_FIXTURES=1` takes
 * capless's copies even with the upstream ones present (to check a lone clone's path).
 */
export const TOPOLOGY_EXAMPLES_SOURCE: 'upstream' | 'project' =
  process.env.CAPLESS_OWN_FIXTURES !== '1' && existsSync(join(UPSTREAM, IN_MEMORY_CLASS_FILE)) ? 'upstream' : 'project';

/** Whether an upstream example (one capless has no copy of) is beside the checkout. */
export function haveUpstreamExample(file: string): boolean {
  return existsSync(join(UPSTREAM, file));
}

/** The reason a test needing an upstream-only example skips, printed through the test context. */
export function upstreamExampleMissing(file: string): string {
  return `needs Cluster API's ${file} from ../shared/capi-samples/examples, which is not beside this checkout`;
}

/** The text of an example: the in-memory pair from wherever this run takes it, others from upstream. */
export function exampleText(file: string): string {
  const fromOwn = TOPOLOGY_EXAMPLES_SOURCE === 'project' && (file === IN_MEMORY_CLASS_FILE || file === IN_MEMORY_TEMPLATE_FILE);
  return readFileSync(join(fromOwn ? OWN : UPSTREAM, file), 'utf8');
}

export function yamlDocuments(text: string): KubeObject[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS())
    .filter((d): d is KubeObject => isRecord(d));
}

/**
 * Real Cluster API manifests pass admission unchanged: the upstream examples under
 * ../shared/capi-samples and the two sample manifests of the seed text (v1beta1-style refs).
 * clusterctl templates among them are first filled by `capless generate cluster`'s substitution.
 * These inputs live outside the repository; when they are absent the suite says so and skips.
 * The same behaviour is covered on inline objects by the other admission tests.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { generateCluster } from '../../cli/templates/clusterctl-variables.js';
import { admitCreate } from '../../shared/contracts/admission/admit.js';
import { referencePaths } from '../../shared/contracts/conversion/references.js';
import { valueAt } from '../../shared/contracts/json.js';
import { groupOf } from '../../shared/contracts/object.js';
import { pendingReason as upstreamPendingReason } from '../support/upstream-samples.js';
import { ctx } from './admission-fixtures.js';

const SHARED = fileURLToPath(new URL('../../../shared/', import.meta.url));
const EXAMPLES = `${SHARED}capi-samples/examples/`;
const SEED = `${SHARED}seed/000_8998c448e40c2758.txt`;

/** clusterctl templates (`${VAR}` placeholders) are filled the way `capless generate cluster` fills them. */
function manifestText(file: string): string {
  const text = readFileSync(`${EXAMPLES}${file}`, 'utf8');
  if (!text.includes('${')) return text;
  return generateCluster(
    text,
    { clusterName: 'sample', kubernetesVersion: 'v1.33.0', controlPlaneMachineCount: 3, workerMachineCount: 2, targetNamespace: 'default' },
    {},
  );
}

function exampleDocuments(): [string, unknown][] {
  if (!existsSync(EXAMPLES)) return [];
  return readdirSync(EXAMPLES)
    .filter((file) => file.endsWith('.yaml'))
    .flatMap((file) =>
      parseAllDocuments(manifestText(file))
        .map((doc, i): [string, unknown] => [`${file}#${i}`, doc.toJS()])
        .filter(([, doc]) => doc !== null), // an empty document after a trailing `---` is no manifest
    );
}

/** The YAML blocks that follow `# 檔案: config/samples/<name>.yaml` lines, up to the next blank line. */
function seedDocuments(): [string, unknown][] {
  if (!existsSync(SEED)) return [];
  const lines = readFileSync(SEED, 'utf8').split('\n');
  const docs: [string, unknown][] = [];
  lines.forEach((line, index) => {
    const match = /^# 檔案: (config\/samples\/\S+\.yaml)$/.exec(line.trim());
    if (!match?.[1]) return;
    const end = lines.findIndex((next, j) => j > index && next.trim() === '');
    docs.push([match[1], parse(lines.slice(index + 1, end === -1 ? undefined : end).join('\n'))]);
  });
  return docs;
}

const examples = exampleDocuments();
const seeds = seedDocuments();

function expectV1beta2References(obj: { apiVersion: string; kind: string }) {
  for (const path of referencePaths(groupOf(obj.apiVersion), obj.kind)) {
    const ref = valueAt(obj, ...path);
    if (ref === undefined) continue;
    expect(Object.keys(ref ?? {}).sort(), path.join('.')).toEqual(['apiGroup', 'kind', 'name']);
  }
}

const pendingReason = (doc: unknown) => upstreamPendingReason(doc, ctx.kinds);

const admissible = examples.filter(([, doc]) => pendingReason(doc) === undefined);
const pending = examples.flatMap(([name, doc]): [string, string][] => {
  const reason = pendingReason(doc);
  return reason === undefined ? [] : [[name, reason]];
});

describe('upstream example manifests', () => {
  if (examples.length === 0) {
    it('upstream example manifests', (context) => context.skip(`${EXAMPLES} is absent: upstream example manifests not checked`));
    return;
  }

  for (const [name, reason] of pending) it(`${name} skipped: ${reason}`, (context) => context.skip(reason));

  it.each(admissible)('%s passes admitCreate unchanged', (_name, doc) => {
    const admitted = admitCreate(doc, ctx);
    expect(admitted.apiVersion.endsWith('/v1beta2') || admitted.apiVersion.endsWith('/v1alpha3')).toBe(true);
    expectV1beta2References(admitted);
  });

  it('serves the clusterctl Metadata document, release series intact', () => {
    const doc = examples.find(([, d]) => valueAt(d, 'kind') === 'Metadata')?.[1];
    const admitted = admitCreate(doc, ctx);
    expect(admitted.metadata.name).toBe('metadata');
    expect(valueAt(admitted, 'releaseSeries')).toEqual(valueAt(doc, 'releaseSeries'));
  });
});

describe('seed sample manifests (v1beta1-style references)', () => {
  if (seeds.length === 0) {
    it('seed sample manifests', (context) => context.skip(`${SEED} is absent: seed sample manifests not checked`));
    return;
  }

  it('finds both sample manifests', () => {
    expect(seeds.map(([name]) => name)).toEqual(['config/samples/cluster-with-infra.yaml', 'config/samples/machine-with-bootstrap.yaml']);
  });

  it.each(seeds)('%s passes admitCreate and comes out with v1beta2 refs', (_name, doc) => {
    const admitted = admitCreate(doc, ctx);
    expect(admitted.metadata.namespace).toBe('default');
    expectV1beta2References(admitted);
  });

  it('converts the Cluster infrastructureRef to {apiGroup, kind, name}', () => {
    const doc = seeds.find(([name]) => name.includes('cluster-with-infra'))?.[1];
    expect(valueAt(admitCreate(doc, ctx), 'spec', 'infrastructureRef')).toEqual({
      apiGroup: 'infrastructure.cluster.x-k8s.io',
      kind: 'DockerCluster',
      name: 'my-cluster',
    });
  });

  it('converts both Machine references', () => {
    const doc = seeds.find(([name]) => name.includes('machine-with-bootstrap'))?.[1];
    const admitted = admitCreate(doc, ctx);
    expect(valueAt(admitted, 'spec', 'bootstrap', 'configRef')).toEqual({
      apiGroup: 'bootstrap.cluster.x-k8s.io',
      kind: 'KubeadmConfig',
      name: 'worker-1-bootstrap',
    });
    expect(valueAt(admitted, 'spec', 'infrastructureRef')).toEqual({
      apiGroup: 'infrastructure.cluster.x-k8s.io',
      kind: 'DockerMachine',
      name: 'worker-1',
    });
  });
});

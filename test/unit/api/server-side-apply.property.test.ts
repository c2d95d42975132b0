import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldSetFromJson } from '../../../functions/api/apply/field-set.js';
import { handleApiRequest } from '../../../functions/api/api.js';
import { isRecord } from '../../../shared/contracts/json.js';
import { memoryApiDeps } from '../../support/api-deps.js';

/**
 * Property: any sequence of applies by several managers (labels, annotations, finalizers, a
 * list-map of availability gates, paused), with and without force, interleaved with merge
 * patches, gets only 200, 201, 409 or 422 answers, never a 5xx; the stored managedFields always
 * read back as field sets; a forced apply leaves every field it names as it asked; and applying
 * the same configuration again writes nothing.
 */
const RUNS = 150;
const CLUSTER = '/apis/cluster.x-k8s.io/v1beta2/namespaces/default/clusters/c1';
const APPLY = 'application/apply-patch+yaml';

const key = fc.constantFrom('a', 'b', 'c', 'team', 'tier');
const value = fc.constantFrom('1', '2', 'x');
const config = fc.record(
  {
    labels: fc.dictionary(key, value, { maxKeys: 3 }),
    annotations: fc.dictionary(key, value, { maxKeys: 2 }),
    finalizers: fc.uniqueArray(fc.constantFrom('a.example.com/f', 'b.example.com/f'), { maxLength: 2 }),
    paused: fc.boolean(),
    gates: fc.uniqueArray(fc.constantFrom('GateA', 'GateB', 'GateC'), { maxLength: 3 }),
  },
  { requiredKeys: [] },
);
const step = fc.oneof(
  fc.record({ kind: fc.constant('apply' as const), manager: fc.constantFrom('flux', 'helm', 'kubectl'), force: fc.boolean(), config }),
  fc.record({ kind: fc.constant('patch' as const), labels: fc.dictionary(key, fc.option(value, { nil: null }), { maxKeys: 2 }) }),
);

type Config = { labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[]; paused?: boolean; gates?: string[] };

function body(c: Config): Record<string, unknown> {
  const metadata: Record<string, unknown> = { name: 'c1' };
  if (c.labels) metadata.labels = c.labels;
  if (c.annotations) metadata.annotations = c.annotations;
  if (c.finalizers) metadata.finalizers = c.finalizers;
  const spec: Record<string, unknown> = {};
  if (c.paused !== undefined) spec.paused = c.paused;
  if (c.gates && c.gates.length > 0) spec.availabilityGates = c.gates.map((conditionType) => ({ conditionType }));
  return { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata, ...(Object.keys(spec).length > 0 ? { spec } : {}) };
}

async function send(deps: ReturnType<typeof memoryApiDeps>, method: string, contentType: string, payload: unknown, query = '') {
  const response = await handleApiRequest({ method, path: CLUSTER, query: new URLSearchParams(query), headers: { 'content-type': contentType }, body: JSON.stringify(payload) }, deps);
  const parsed: unknown = JSON.parse(response.body);
  return { status: response.status, body: isRecord(parsed) ? parsed : {} };
}

type Step = { kind: 'apply'; manager: string; force: boolean; config: Config } | { kind: 'patch'; labels: Record<string, string | null> };
type Deps = ReturnType<typeof memoryApiDeps>;

function runStep(deps: Deps, s: Step) {
  return s.kind === 'apply'
    ? send(deps, 'PATCH', APPLY, body(s.config), `fieldManager=${s.manager}&force=${s.force}`)
    : send(deps, 'PATCH', 'application/merge-patch+json', { metadata: { labels: s.labels } }, 'fieldManager=editor');
}

function checkOwnership(metadata: Record<string, unknown>): void {
  for (const entry of Array.isArray(metadata.managedFields) ? metadata.managedFields : []) {
    expect(isRecord(entry) ? fieldSetFromJson(entry.fieldsV1) : undefined).toBeDefined();
  }
}

function checkForced(config: Config, answer: Record<string, unknown>, metadata: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(config.labels ?? {})) expect(metadata.labels).toMatchObject({ [k]: v });
  if (config.paused !== undefined) expect(answer.spec).toMatchObject({ paused: config.paused });
}

describe('server-side apply under any sequence of managers', () => {
  it('answers only with success, conflict or invalid; keeps readable ownership; a forced apply holds; a repeat writes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const deps = memoryApiDeps({ authenticate: () => ({ name: 'admin', canReadSecrets: true, canWriteSecrets: true }) });
        for (const s of steps) {
          const answer = await runStep(deps, s);
          expect([200, 201, 404, 409, 422], JSON.stringify(answer.body).slice(0, 400)).toContain(answer.status);
          if (answer.status >= 300) continue;
          const metadata = isRecord(answer.body.metadata) ? answer.body.metadata : {};
          checkOwnership(metadata);
          if (s.kind !== 'apply') continue;
          if (s.force) checkForced(s.config, answer.body, metadata);
          expect(await runStep(deps, s)).toEqual({ status: 200, body: answer.body });
        }
      }),
      { numRuns: RUNS },
    );
  }, 60_000);
});

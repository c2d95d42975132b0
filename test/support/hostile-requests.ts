/**
 * The standing hostile-input suite's request classes (test/integration/api/hostile-input.property.test.ts):
 * every route and verb, JSON Patch and prototype-key attacks, deep and duplicate-key JSON, huge
 * metadata, percent-encoded paths, forged list queries, Secret access without permission — plus
 * the malformed requests of bad-requests.ts. The pieces live under ./hostile/.
 */
import fc from 'fast-check';
import type { KindRegistry } from '../../shared/contracts/kinds.js';
import { type Seed, badRequests } from './bad-requests.js';
import { deepNesting, duplicateKeys, hugeMetadata, oddBodies } from './hostile/families-bodies.js';
import { jsonPatches, prototypeKeys } from './hostile/families-patches.js';
import { discoveryAndUnknown, listQueries, percentEncoded, routes, secrets } from './hostile/families-routes.js';
import { type HostileRequest, hostile } from './hostile/model.js';

export { type HostileApi, startHostileApi } from './hostile/api.js';
export { pollution, prototypeBaseline, report, run, violations } from './hostile/checks.js';
export { amplification, IN_PROCESS_DOUBLINGS } from './hostile/families-patches.js';
export { nestedJson } from './hostile/families-bodies.js';
export { PERCENT_PATHS } from './hostile/families-routes.js';
export { describeRequest, type HostileRequest } from './hostile/model.js';
export { SECRET_NEEDLES, SECRET_VALUES, SEED_OBJECTS, machineDeployment } from './hostile/seeds.js';

/** The requests of bad-requests.ts with the headers they were built with (the seed is read when the run starts). */
function malformed(seed: () => Seed): fc.Arbitrary<HostileRequest> {
  return fc.constant(null).chain(() => badRequests(seed())).map((bad) => {
    const { authorization, 'content-type': contentType } = bad.request.headers;
    return hostile({
      family: `bad-requests: ${bad.label}`,
      caller: 'anonymous',
      method: bad.request.method,
      path: bad.request.path,
      query: bad.request.query.toString(),
      ...(contentType !== undefined ? { contentType } : {}),
      ...(authorization !== undefined ? { authorization } : {}),
      body: bad.request.body,
    });
  });
}

/** Each request class with its share of a run (numbers of generated requests). */
export function hostileFamilies(kinds: KindRegistry, seed: () => Seed): Record<string, { arbitrary: fc.Arbitrary<HostileRequest>; runs: number }> {
  return {
    routes: { arbitrary: routes(kinds), runs: 2500 },
    'discovery+unknown': { arbitrary: discoveryAndUnknown(), runs: 500 },
    'list-queries': { arbitrary: listQueries(kinds), runs: 1200 },
    secrets: { arbitrary: secrets(), runs: 1000 },
    'json-patch': { arbitrary: jsonPatches(), runs: 1200 },
    'prototype-keys': { arbitrary: prototypeKeys(kinds), runs: 600 },
    'deep-nesting': { arbitrary: deepNesting(), runs: 150 },
    'duplicate-keys': { arbitrary: duplicateKeys(), runs: 200 },
    'huge-metadata': { arbitrary: hugeMetadata(kinds), runs: 250 },
    'odd-bodies': { arbitrary: oddBodies(kinds), runs: 800 },
    'percent-encoded': { arbitrary: percentEncoded(), runs: 100 },
    'bad-requests': { arbitrary: malformed(seed), runs: 500 },
  };
}

/** All classes mixed, weighted by their shares. */
export function hostileRequests(kinds: KindRegistry, seed: () => Seed): fc.Arbitrary<HostileRequest> {
  return fc.oneof(...Object.values(hostileFamilies(kinds, seed)).map(({ arbitrary, runs }) => ({ arbitrary, weight: runs })));
}

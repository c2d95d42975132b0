import fc from 'fast-check';
import type { KindRegistry } from '../../../shared/contracts/kinds.js';
import { JSON_PATCH, MERGE_PATCH, caller, dryRun, ownKeys, plainObject, request } from './common.js';
import type { HostileRequest } from './model.js';
import { SEED_OBJECTS, collectionPath } from './seeds.js';

const SEED_PATHS = SEED_OBJECTS.map((o) => {
  const root = o.apiVersion.includes('/') ? `/apis/${o.apiVersion}` : `/api/${o.apiVersion}`;
  const plural = { ConfigMap: 'configmaps', Secret: 'secrets', Cluster: 'clusters', MachineSet: 'machinesets' }[o.kind] ?? '';
  return `${root}/namespaces/default/${plural}/${o.metadata.name}`;
});

const POLLUTING = [
  '/__proto__/x', '/__proto__/polluted', '/constructor/prototype/x', '/metadata/labels/__proto__', '/metadata/__proto__/x', '/metadata/labels/__proto__/x',
  '/spec/__proto__/x', '/metadata/labels/constructor/prototype/x', '/data/__proto__', '/__proto__', '/constructor', '/prototype/x', '/metadata/finalizers/__proto__',
  '/metadata/labels/hasOwnProperty', '/metadata/labels/toString', '/metadata/labels/valueOf', '/__proto__/__proto__/x', '/metadata/finalizers/length',
];
const SEGMENTS = ['__proto__', 'constructor', 'prototype', 'metadata', 'labels', 'annotations', 'spec', 'data', 'k', 'x', '-', '0', '1', '~1', '~0', '', 'replicas', 'finalizers', 'length'];

const pointer = fc.oneof(
  { arbitrary: fc.constantFrom(...POLLUTING), weight: 3 },
  { arbitrary: fc.constantFrom('/metadata/labels/a', '/metadata/annotations', '/spec/replicas', '/data/k', '/metadata/name', '/metadata/resourceVersion', '/kind', '/apiVersion', '/status', '', '/', 'x', '/metadata/finalizers/-', '/metadata/finalizers/0', '/metadata/labels/a~1b', '/metadata/labels/~2'), weight: 3 },
  { arbitrary: fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 6 }).map((s) => `/${s.join('/')}`), weight: 3 },
  { arbitrary: fc.integer({ min: 50, max: 5000 }).map((n) => `/${'a/'.repeat(n)}b`), weight: 1 },
);
const value = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constantFrom({ polluted: true }, 'x'.repeat(70_000), 2147483648, -1, null, [], {}));
const operation = fc.record({ op: fc.constantFrom('add', 'remove', 'replace', 'copy', 'move', 'test', 'bogus', 'ADD', ''), path: pointer, from: fc.option(pointer, { nil: undefined }), value: fc.option(value, { nil: undefined }) }, { requiredKeys: ['op', 'path'] });

/** `add /x` then copies that double it: 40 * 2^n characters from a body of a kilobyte. */
export function amplification(doublings: number, shape: 'object' | 'array' | 'linear' = 'object'): unknown[] {
  const seed = 'A'.repeat(40);
  if (shape === 'linear') return [{ op: 'add', path: '/x', value: seed }, ...Array.from({ length: doublings }, (_, i) => ({ op: 'copy', from: '/x', path: `/y${i}` }))];
  if (shape === 'array') return [{ op: 'add', path: '/x', value: [seed] }, ...Array.from({ length: doublings }, () => ({ op: 'copy', from: '/x', path: '/x/-' }))];
  return [{ op: 'add', path: '/x', value: { v: seed } }, ...Array.from({ length: doublings }, (_, i) => ({ op: 'copy', from: '/x', path: `/x/a${i}` }))];
}

/** Largest doubling chain run in-process: the full 24 (a 670 MB document if unbounded) runs in a child process in the regression suite. */
export const IN_PROCESS_DOUBLINGS = 16;

/** JSON Patch with every op, polluting and deep pointers, and amplifying copy chains. */
export function jsonPatches(): fc.Arbitrary<HostileRequest> {
  const ops = fc.oneof(
    { arbitrary: fc.array(operation, { minLength: 1, maxLength: 6 }), weight: 8 },
    { arbitrary: fc.tuple(fc.integer({ min: 1, max: IN_PROCESS_DOUBLINGS }), fc.constantFrom('object', 'array', 'linear') as fc.Arbitrary<'object' | 'array' | 'linear'>).map(([n, s]) => amplification(s === 'linear' ? n + 8 : n, s)), weight: 1 },
    { arbitrary: fc.constantFrom([{ op: 'add', path: '/metadata/labels', value: { a: 'b' } }, { op: 'copy', from: '/metadata/labels', path: '/metadata/labels/__proto__' }], [{ op: 'move', from: '/metadata', path: '/metadata/x' }], [{ op: 'copy', from: '', path: '/spec/self' }], [{ op: 'add', path: '', value: { kind: 'Status' } }]), weight: 1 },
  );
  return fc.record({ target: fc.constantFrom(...SEED_PATHS), ops, dryRun, caller }).map(({ target, ops: list, dryRun: q, caller: who }) =>
    request({ family: 'json-patch', caller: who, method: 'PATCH', path: target, query: seedSecretDry(target, who, q), contentType: JSON_PATCH, body: JSON.stringify(list) }),
  );
}

/** The admin only dry-runs writes to the seeded Secret, so its values stay the ones searched for. */
function seedSecretDry(path: string, who: string, query: string): string {
  return who === 'admin' && path.includes('/secrets/') && !query.includes('dryRun=All') ? 'dryRun=All' : query;
}

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];

/** Merge patches and JSON/YAML bodies carrying `__proto__`, `constructor` and `prototype` keys. */
export function prototypeKeys(kinds: KindRegistry): fc.Arbitrary<HostileRequest> {
  const payload = fc.constantFrom<unknown>({ polluted: 1 }, { prototype: { polluted: 1 } }, 1, 'x', null, [1]);
  const where = fc.constantFrom('top', 'metadata', 'labels', 'spec', 'nested');
  const document = fc.tuple(fc.constantFrom(...PROTO_KEYS), payload, where).map(([key, p, at]) => {
    const poisoned = ownKeys([[key, p]]);
    if (at === 'top') return poisoned;
    if (at === 'metadata') return { metadata: poisoned };
    if (at === 'labels') return { metadata: { labels: poisoned } };
    if (at === 'spec') return { spec: poisoned };
    return { spec: { a: { b: [poisoned] } } };
  });
  const infos = ['ConfigMap', 'Cluster', 'MachineSet', 'Secret'].map((k) => kinds.all().find((i) => i.kind === k)).filter((i) => i !== undefined);
  return fc.record({ doc: document, target: fc.constantFrom(...SEED_PATHS), info: fc.constantFrom(...infos), how: fc.nat(4), dryRun, caller, key: fc.constantFrom(...PROTO_KEYS) }).map(({ doc, target, info, how, dryRun: q, caller: who, key }) => {
    const base = { family: 'prototype-keys', caller: who, query: q };
    const collection = collectionPath(info, 'default');
    switch (how) {
      case 0:
        return request({ ...base, method: 'PATCH', path: target, query: seedSecretDry(target, who, q), contentType: MERGE_PATCH, body: JSON.stringify(doc) });
      case 1:
        return request({ ...base, method: 'POST', path: collection, contentType: 'application/json', body: JSON.stringify({ ...plainObject(info, 'proto-create'), ...(doc as object) }).replace('{', `{${JSON.stringify(key)}:{"polluted":1},`) });
      case 2:
        return request({ ...base, method: 'PUT', path: target, query: seedSecretDry(target, who, q), contentType: 'application/json', body: { overlay: doc as Record<string, unknown> } });
      case 3:
        return request({ ...base, method: 'POST', path: collection, contentType: 'application/yaml', body: `${key}:\n  polluted: 1\napiVersion: ${info.group ? `${info.group}/` : ''}${info.versions[0]}\nkind: ${info.kind}\nmetadata:\n  name: yaml-proto\n  labels:\n    ${key}: x\n` });
      default:
        return request({ ...base, method: 'PUT', path: target, query: seedSecretDry(target, who, q), contentType: 'application/yaml', body: `metadata:\n  ${key}:\n    polluted: 1\n  name: x\n${key}:\n  ${key}:\n    polluted: 1\n` });
    }
  });
}

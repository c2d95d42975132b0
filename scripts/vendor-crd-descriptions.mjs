#!/usr/bin/env node
/**
 * Vendors the field descriptions of Cluster API's CRDs (the storage version's openAPIV3Schema)
 * into shared/contracts/crds/descriptions/<group>_<plural>.json: `{ kind, group, descriptions:
 * { "<field path>": "<description>" } }`, the path dotted (`spec.topology`), `[]` for array
 * items, `*` for map values, "" for the object itself. capless's OpenAPI and CRDs carry them, so
 * `kubectl explain` explains as against Cluster API.
 * Usage: node scripts/vendor-crd-descriptions.mjs ../shared/capi-samples/crds
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const source = process.argv[2] ?? '../shared/capi-samples/crds';
const target = 'shared/contracts/crds/descriptions';
mkdirSync(target, { recursive: true });

function collect(node, path, out) {
  if (!node || typeof node !== 'object') return;
  if (typeof node.description === 'string') out[path] = node.description;
  const join = (name) => (path === '' ? name : `${path}.${name}`);
  for (const [name, child] of Object.entries(node.properties ?? {})) collect(child, join(name), out);
  if (node.items) collect(node.items, `${path}[]`, out);
  if (node.additionalProperties && typeof node.additionalProperties === 'object') collect(node.additionalProperties, join('*'), out);
}

for (const file of readdirSync(source).filter((name) => name.endsWith('.yaml')).sort()) {
  const crd = parse(readFileSync(join(source, file), 'utf8'));
  const storage = crd.spec.versions.find((version) => version.storage);
  const descriptions = {};
  collect(storage.schema.openAPIV3Schema, '', descriptions);
  const document = { group: crd.spec.group, kind: crd.spec.names.kind, version: storage.name, descriptions };
  writeFileSync(join(target, file.replace(/\.yaml$/, '.json')), `${JSON.stringify(document, null, 1)}\n`);
  console.log(`${file}: ${Object.keys(descriptions).length} descriptions`);
}

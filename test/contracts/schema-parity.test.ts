/**
 * Schema parity with Cluster API's CRDs, generated: from every valid object (the project's own
 * fixtures and the upstream examples), variants are derived along the CRD's openAPIV3Schema —
 * each present field removed (refused exactly when the CRD requires it), each string or integer
 * given the other type, each enum field an unlisted value (always refused) — and admission must
 * agree with the CRD on every one. The CRDs live in ../shared/capi-samples/crds, outside the
 * repository: without them the suite is skipped with the reason.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { admitCreate } from '../../shared/contracts/admission/admit.js';
import { isRecord } from '../../shared/contracts/json.js';
import { groupOf } from '../../shared/contracts/object.js';
import { lifecycleCluster } from '../support/lifecycle-manifests.js';
import { cluster, ctx, kubeadmConfig, kubeadmControlPlane, machine, machineDeployment, machineSet } from './admission-fixtures.js';

const SHARED = fileURLToPath(new URL('../../../shared/capi-samples/', import.meta.url));
const CRDS = `${SHARED}crds/`;
const EXAMPLES = `${SHARED}examples/`;

type Schema = Record<string, unknown>;

function storageSchemas(): Map<string, Schema> {
  const schemas = new Map<string, Schema>();
  if (!existsSync(CRDS)) return schemas;
  for (const file of readdirSync(CRDS).filter((f) => f.endsWith('.yaml'))) {
    const crd: unknown = parse(readFileSync(`${CRDS}${file}`, 'utf8'));
    if (!isRecord(crd) || !isRecord(crd.spec) || !isRecord(crd.spec.names) || !Array.isArray(crd.spec.versions)) continue;
    const storage = crd.spec.versions.find((v) => isRecord(v) && v.storage === true);
    const schema = isRecord(storage) && isRecord(storage.schema) ? storage.schema.openAPIV3Schema : undefined;
    if (isRecord(schema)) schemas.set(`${String(crd.spec.group)}/${String(crd.spec.names.kind)}`, schema);
  }
  return schemas;
}

function validObjects(): [string, Record<string, unknown>][] {
  const own: [string, unknown][] = [
    ...[cluster(), machine(), machineSet(), machineDeployment(), kubeadmControlPlane(), kubeadmConfig()].map((o): [string, unknown] => [`fixture ${o.kind}`, o]),
    ...lifecycleCluster('parity').map((o): [string, unknown] => [`lifecycle ${o.kind}`, o]),
  ];
  const upstream: [string, unknown][] = existsSync(EXAMPLES)
    ? readdirSync(EXAMPLES)
        .filter((f) => f.endsWith('.yaml'))
        .flatMap((f) => parseAllDocuments(readFileSync(`${EXAMPLES}${f}`, 'utf8')).map((d, i): [string, unknown] => [`${f}#${i}`, d.toJS()]))
    : [];
  return [...own, ...upstream].flatMap(([name, doc]): [string, Record<string, unknown>][] => {
    if (!isRecord(doc) || JSON.stringify(doc).includes('${')) return [];
    try {
      admitCreate(structuredClone(doc), ctx);
      return [[name, doc]];
    } catch {
      return [];
    }
  });
}

interface Variant {
  name: string;
  object: unknown;
  crdAccepts: boolean;
}

const SKIPPED_ROOT = new Set(['apiVersion', 'kind', 'metadata', 'status']);

/** Variants of `object` along `schema`, up to `depth` levels below the root. */
function variants(root: Record<string, unknown>, schema: Schema, depth = 4): Variant[] {
  const found: Variant[] = [];
  const walk = (node: Record<string, unknown>, nodeSchema: Schema, path: string[]) => {
    const properties = isRecord(nodeSchema.properties) ? nodeSchema.properties : {};
    const required = Array.isArray(nodeSchema.required) ? nodeSchema.required : [];
    for (const [key, value] of Object.entries(node)) {
      const child = properties[key];
      if ((path.length === 0 && SKIPPED_ROOT.has(key)) || !isRecord(child)) continue;
      const at = [...path, key];
      found.push(...fieldVariants(root, at, value, child, !required.includes(key)));
      if (isRecord(value) && child.type === 'object' && at.length < depth) walk(value, child, at);
    }
  };
  walk(root, schema, []);
  return found;
}

/** The field removed (accepted unless required), of the other type, outside its enum. */
function fieldVariants(root: Record<string, unknown>, at: string[], value: unknown, schema: Schema, optional: boolean): Variant[] {
  const name = at.join('.');
  const found: Variant[] = [{ name: `${name} removed`, object: setAt(root, at, undefined), crdAccepts: optional }];
  if (schema.type === 'string' && typeof value === 'string') found.push({ name: `${name} as a number`, object: setAt(root, at, 7), crdAccepts: false });
  if (schema.type === 'integer' && typeof value === 'number') found.push({ name: `${name} as a string`, object: setAt(root, at, 'seven'), crdAccepts: false });
  if (Array.isArray(schema.enum) && typeof value === 'string') found.push({ name: `${name} outside its enum`, object: setAt(root, at, 'NotAnEnumValue'), crdAccepts: false });
  return found;
}

function setAt(root: Record<string, unknown>, path: string[], value: unknown): unknown {
  const copy = structuredClone(root);
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (!isRecord(next)) return copy;
    node = next;
  }
  const last = path.at(-1) ?? '';
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

function admits(object: unknown): boolean {
  try {
    admitCreate(object, ctx);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where capless knowingly differs from the CRD, with the reason; each is reported as skipped.
 * Everything else must agree.
 */
const DEFAULTED_SELECTOR =
  "Cluster API's defaulting webhook sets the selector from the cluster name before the CRD schema is checked (mutating admission runs first); capless defaults it the same way";
const KNOWN: Record<string, string> = {
  'MachineSet: spec.selector removed': DEFAULTED_SELECTOR,
  'MachineDeployment: spec.selector removed': DEFAULTED_SELECTOR,
  'Machine: spec.bootstrap.configRef removed':
    "Cluster API's Machine validating webhook refuses a bootstrap with neither configRef nor dataSecretName; capless admission does too",
  'MachineDeployment: spec.template.metadata removed':
    "Cluster API's MachineDeployment validating webhook refuses a selector that does not match the template labels; capless admission does too",
  'MachineDeployment: spec.template.metadata.labels removed':
    "Cluster API's MachineDeployment validating webhook refuses a selector that does not match the template labels; capless admission does too",
  'ExtensionConfig: spec.clientConfig.service removed':
    "Cluster API's ExtensionConfig validating webhook refuses a clientConfig with neither url nor service; capless admission does too",
  'ClusterClass: spec.variables removed':
    "Cluster API's ClusterClass validating webhook refuses a patch whose valueFrom.variable names no defined variable; capless admission does too",
};

const schemas = storageSchemas();
const cases = schemas.size === 0 ? [] : validObjects().flatMap(([source, object]) => {
  const schema = schemas.get(`${groupOf(String(object.apiVersion))}/${String(object.kind)}`);
  return schema ? variants(object, schema).map((v): [string, Variant] => [`${String(object.kind)} (${source}): ${v.name}`, v]) : [];
});
const unique = [...new Map(cases.map(([name, v]) => [`${name.replace(/ \(.*\)/, '')}|${v.crdAccepts}`, [name, v] as [string, Variant]])).values()];

describe("admission agrees with Cluster API's CRDs on generated variants", () => {
  if (schemas.size === 0) {
    it('schema parity', (context) => context.skip(`${CRDS} is absent: admission not compared with Cluster API's CRDs`));
    return;
  }
  for (const [name, variant] of unique) {
    const known = KNOWN[name.replace(/ \(.*\)/, '')];
    if (known) {
      it(`${name} skipped`, (context) => context.skip(known));
      continue;
    }
    it(`${name}: ${variant.crdAccepts ? 'accepted' : 'refused'} as the CRD does`, () => {
      expect(admits(variant.object)).toBe(variant.crdAccepts);
    });
  }
});

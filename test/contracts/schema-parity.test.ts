/**
 * Schema parity with Cluster API's CRDs, generated: from every valid object (the project's own
 * fixtures, the upstream examples and templates), variants are derived along the CRD's
 * openAPIV3Schema (./schema-parity/variants.ts) — each present field removed (refused exactly
 * when the CRD requires it), of the other type, outside its enum, past its length, item, value
 * and property bounds, not matching its pattern — and each CEL rule of a known shape broken
 * (./schema-parity/cel-rules.ts). Admission must agree with the CRD on every one, and a refusal
 * must be a 422 whose causes name the field. The CRDs live in ../shared/capi-samples, outside
 * the repository: without them the suite is skipped with the reason.
 */

import { describe, expect, it } from 'vitest';
import { admitCreate } from '../../shared/contracts/admission/admit.js';
import { groupOf } from '../../shared/contracts/object.js';
import { celPredicate } from '../../shared/contracts/schemas/common/cel-rules.js';
import { InvalidError } from '../../shared/errors/index.js';
import { ctx } from './admission-fixtures.js';
import { rulesOf, shapeOf } from './schema-parity/cel-rules.js';
import { knownDifference } from './schema-parity/known-differences.js';
import { CRDS, refusedUpstream, ruleCarrierObjects, storageSchemas, validObjects } from './schema-parity/sources.js';
import { type Schema, type Variant, variants } from './schema-parity/variants.js';

/** The fields a refusal names, or undefined when the object is admitted. */
function refusal(object: unknown): string[] | undefined {
  try {
    admitCreate(object, ctx);
    return undefined;
  } catch (error) {
    if (error instanceof InvalidError) return error.causes.map((c) => c.field ?? '');
    throw error;
  }
}

const at = (field: string, cause: string) => cause === field || cause.startsWith(`${field}.`) || cause.startsWith(`${field}[`);

const schemas = storageSchemas();
const cases =
  schemas.size === 0
    ? []
    : validObjects().flatMap(([source, object]) => {
        const crd = schemas.get(`${groupOf(String(object.apiVersion))}/${String(object.kind)}`);
        // Variants follow the storage version's schema: objects written in an older version are left out.
        if (!crd || !String(object.apiVersion).endsWith(`/${crd.version}`)) return [];
        return variants(object, crd.schema).map((v): [string, Variant] => [`${String(object.kind)} (${source}): ${v.name}`, v]);
      });
const withoutSource = (name: string) => name.replace(/ \([^)]*\)/, '');
const unique = [...new Map(cases.map(([name, v]) => [`${withoutSource(name)}|${v.crdAccepts}`, [name, v] as [string, Variant]])).values()];

describe("admission agrees with Cluster API's CRDs on generated variants", () => {
  if (schemas.size === 0) {
    it('schema parity', (context) => context.skip(`${CRDS} is absent: admission not compared with Cluster API's CRDs`));
    return;
  }
  for (const [name, variant] of unique) {
    const known = knownDifference(withoutSource(name));
    if (known) {
      it(`${name} skipped`, (context) => context.skip(known));
      continue;
    }
    it(`${name}: ${variant.crdAccepts ? 'accepted' : 'refused'} as the CRD does`, () => {
      const fields = refusal(variant.object);
      if (variant.crdAccepts) expect(fields).toBeUndefined();
      else expect(fields?.some((field) => at(variant.field, field)), `causes name ${variant.field}: ${JSON.stringify(fields)}`).toBe(true);
    });
  }
});

/** `Kind.path` of every CEL rule of the served kinds' CRDs. */
function celRules(): Map<string, string[]> {
  const rules = new Map<string, string[]>();
  const walk = (schema: Schema, path: string) => {
    for (const rule of rulesOf(schema)) rules.set(rule, [...(rules.get(rule) ?? []), path]);
    const properties = typeof schema.properties === 'object' && schema.properties !== null ? Object.entries(schema.properties) : [];
    for (const [name, child] of properties) if (typeof child === 'object' && child !== null) walk(child as Schema, `${path}.${name}`);
    if (typeof schema.items === 'object' && schema.items !== null) walk(schema.items as Schema, `${path}[]`);
  };
  for (const [groupKind, { schema }] of schemas) if (ctx.kinds.get(groupKind.split('/')[0] ?? '', groupKind.split('/')[1] ?? '')) walk(schema, groupKind.split('/')[1] ?? '');
  return rules;
}

describe("the CRDs' CEL rules (x-kubernetes-validations)", () => {
  if (schemas.size === 0) {
    it('CEL rules', (context) => context.skip(`${CRDS} is absent: CEL rules not compared`));
    return;
  }
  const broken = new Set(unique.flatMap(([, v]) => (v.rule ? [v.rule] : [])));
  for (const [rule, paths] of celRules()) {
    const where = `${paths.slice(0, 2).join(', ')}${paths.length > 2 ? ` and ${paths.length - 2} more` : ''}`;
    if (!celPredicate(rule)) {
      it(`"${rule}" at ${where} is not evaluated`, (context) => context.skip('admission has no CEL interpreter and this rule is of no shape shared/contracts/schemas/common/cel-rules.ts evaluates'));
    } else if (!shapeOf(rule)) {
      it(`"${rule}" at ${where} is not compared`, (context) => context.skip('no rule shape in schema-parity/cel-rules.ts breaks it'));
    } else if (!broken.has(rule)) {
      it(`"${rule}" at ${where} is not exercised`, (context) => context.skip('no valid object carries the field it is declared on'));
    } else {
      it(`"${rule}" at ${where} is evaluated by admission (its variants above are refused)`, () => expect(celPredicate(rule)).toBeDefined());
    }
  }
});

describe('the valid objects variants are derived from', () => {
  it('every upstream example and sample object is admitted', (context) => {
    if (schemas.size === 0) return context.skip(`${CRDS} is absent`);
    expect(refusedUpstream().join('\n')).toBe('');
  });
  it.each(ruleCarrierObjects().map((o, i): [string, unknown] => [`${i}`, o]))('rule carrier %s is admitted', (_i, object) => {
    expect(refusal(object)).toBeUndefined();
  });
});

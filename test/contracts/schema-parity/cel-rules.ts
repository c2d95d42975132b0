/**
 * The CEL rules (`x-kubernetes-validations`) the CRDs declare, by the shape of the rule, each
 * with a way to break it: a replacement of the value the rule is declared on. A rule no shape
 * here matches is listed by the parity test as not compared, with the reason.
 */

import { isRecord } from '../../../shared/contracts/json.js';
import { type Schema, type Segment, type Variant, variant } from './variants.js';

interface RuleShape {
  /** What the rule says, for the test names. */
  says: string;
  /** Matches the rule text; the groups feed `breaks`. */
  rule: RegExp;
  /** Values of the field that violate the rule, derived from the valid one; none when it cannot be broken from there. */
  breaks: (value: unknown, groups: readonly string[]) => { what: string; value: unknown }[];
}

const quoted = (list: string) => [...list.matchAll(/'([^']*)'/g)].map((m) => m[1] ?? '');

export const RULE_SHAPES: readonly RuleShape[] = [
  {
    says: 'list entries unique by name',
    rule: /^self\.all\(x, self\.exists_one\(y, x\.name == y\.name\)\)$/,
    breaks: (value) => (Array.isArray(value) && value.length > 0 ? [{ what: 'with a duplicate name', value: [...value, structuredClone(value[0])] }] : []),
  },
  {
    says: 'list entries unique as wholes',
    rule: /^self\.all\(x, self\.exists_one\(y, x == y\)\)$/,
    breaks: (value) => {
      if (!Array.isArray(value) || value.length === 0) return [];
      // The same entry again, its keys in another order: still equal for CEL.
      const reordered = isRecord(value[0]) ? Object.fromEntries(Object.entries(structuredClone(value[0])).reverse()) : structuredClone(value[0]);
      return [{ what: 'with a duplicate entry', value: [...value, reordered] }];
    },
  },
  {
    says: 'exactly one of two fields',
    rule: /^\[has\(self\.(\w+)\),\s*has\(self\.(\w+)\)\]\.filter\(x,\s*x\s*==\s*true\)\.size\(\) == 1$/,
    breaks: (value, [a = '', b = '']) => {
      if (!isRecord(value)) return [];
      const neither = structuredClone(value);
      delete neither[a];
      delete neither[b];
      const both = { ...value, [a]: value[a] ?? SAMPLE[a], [b]: value[b] ?? SAMPLE[b] };
      return [
        { what: `with neither ${a} nor ${b}`, value: neither },
        { what: `with both ${a} and ${b}`, value: both },
      ];
    },
  },
  {
    says: 'a string matching a regular expression',
    rule: /^self\.matches\('(.*)'\)$/,
    breaks: (value, [pattern = '']) =>
      typeof value === 'string' && !new RegExp(pattern, 'u').test('NotAMatch!') ? [{ what: 'not matching the rule', value: 'NotAMatch!' }] : [],
  },
  {
    says: 'a string outside a list',
    rule: /^!\(self in \[(.*)\]\)$/,
    breaks: (value, [list = '']) => (typeof value === 'string' ? quoted(list).slice(0, 1).map((v) => ({ what: `set to ${v}`, value: v })) : []),
  },
  {
    says: 'a string inside a list',
    rule: /^self in \[(.*)\]$/,
    breaks: (value) => (typeof value === 'string' ? [{ what: 'outside the rule list', value: 'not-listed' }] : []),
  },
  {
    says: 'a string with a prefix',
    rule: /^self\.startsWith\('(.*)'\)$/,
    breaks: (value, [prefix = '']) => (typeof value === 'string' ? [{ what: `without the prefix ${prefix}`, value: `x${value}` }] : []),
  },
  {
    says: 'two fields not both set',
    rule: /^!has\(self\.(\w+)\) \|\| !has\(self\.(\w+)\)$/,
    breaks: (value, [a = '', b = '']) => (isRecord(value) && (a in value || b in value) ? [{ what: `with both ${a} and ${b}`, value: { ...value, [a]: value[a] ?? SAMPLE[a], [b]: value[b] ?? SAMPLE[b] } }] : []),
  },
  {
    says: 'a field not set together with another field at a value',
    rule: /^!has\(self\.(\w+)\) \|\| !has\(self\.(\w+)\) \|\| self\.\w+ != '(.*)'$/,
    breaks: (value, [a = '', b = '', v = '']) => (isRecord(value) && (a in value || b in value) ? [{ what: `with ${a} and ${b} ${v}`, value: { ...value, [a]: value[a] ?? SAMPLE[a], [b]: v } }] : []),
  },
];

/** Valid values for the fields the rules above set when a valid object lacks them. */
const SAMPLE: Record<string, unknown> = { capacityReservationId: 'cr-0123456789abcdef0', spotMarketOptions: {}, marketType: 'Spot', layout: true, diskLayout: [{ percentage: 100 }] };

export function shapeOf(rule: string): { shape: RuleShape; groups: string[] } | undefined {
  for (const shape of RULE_SHAPES) {
    const match = shape.rule.exec(rule);
    if (match) return { shape, groups: match.slice(1).map((g) => g ?? '') };
  }
  return undefined;
}

/** Rules of a schema node. */
export function rulesOf(schema: Schema): string[] {
  const rules = schema['x-kubernetes-validations'];
  return Array.isArray(rules) ? rules.flatMap((r) => (isRecord(r) && typeof r.rule === 'string' ? [r.rule] : [])) : [];
}

/** Every rule whose shape is known, broken at the field it is declared on. */
export function celVariants(root: Record<string, unknown>, at: Segment[], value: unknown, schema: Schema): Variant[] {
  return rulesOf(schema).flatMap((rule) => {
    const known = shapeOf(rule);
    if (!known) return [];
    return known.shape.breaks(value, known.groups).map((broken) => ({ ...variant(root, at, `breaking "${rule}" ${broken.what}`, broken.value, false), rule }));
  });
}

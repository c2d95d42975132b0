/**
 * The CEL rules (`x-kubernetes-validations`) capless evaluates, by shape: a rule's text is
 * matched against the shapes Cluster API's, CAPA's and the IPAM provider's CRDs use, and a
 * matching rule becomes a predicate on the value it is declared on. capless carries no CEL
 * interpreter (ADR 0120); a rule of no known shape is not evaluated, and the schema-parity test
 * lists each such rule as skipped with the reason.
 */

type Predicate = (self: unknown) => boolean;

interface RuleShape {
  /** The rule's text; the groups are its parameters. */
  text: RegExp;
  predicate: (groups: readonly string[]) => Predicate;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (self: unknown, field: string) => isObject(self) && self[field] !== undefined;
/**
 * The value with every object's keys sorted: two values give the same JSON exactly when CEL's
 * `==` holds between them (lists by position, maps by key whatever their order).
 */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .filter((key) => value[key] !== undefined)
      .map((key) => [key, canonical(value[key])]),
  );
}

/** No two entries of the list are equal as wholes (CEL `==`, which compares structurally). */
export function entriesUnique(list: readonly unknown[]): boolean {
  return new Set(list.map((item) => JSON.stringify(canonical(item)))).size === list.length;
}

/** `'a','b'` → ['a', 'b'] */
const quotedList = (list: string) => [...list.matchAll(/'([^']*)'/g)].map((m) => m[1] ?? '');

const SHAPES: readonly RuleShape[] = [
  {
    // Entries unique by name: `self.all(x, self.exists_one(y, x.name == y.name))`.
    text: /^self\.all\((\w+), self\.exists_one\((\w+), \1\.(\w+) == \2\.\3\)\)$/,
    predicate: ([, , key = '']) => (self) => {
      if (!Array.isArray(self)) return true;
      const keys = self.map((item: unknown) => (isObject(item) ? JSON.stringify(item[key]) : undefined));
      return new Set(keys).size === keys.length;
    },
  },
  {
    // Entries unique as wholes: `self.all(x, self.exists_one(y, x == y))`.
    text: /^self\.all\((\w+), self\.exists_one\((\w+), \1 == \2\)\)$/,
    predicate: () => (self) => !Array.isArray(self) || entriesUnique(self),
  },
  {
    // Exactly one of two fields: `[has(self.a),has(self.b)].filter(x,x==true).size() == 1`.
    text: /^\[has\(self\.(\w+)\),\s*has\(self\.(\w+)\)\]\.filter\((\w+),\s*\3\s*==\s*true\)\.size\(\) == 1$/,
    predicate: ([a = '', b = '']) => (self) => Number(has(self, a)) + Number(has(self, b)) === 1,
  },
  {
    // `self.matches('re')` (RE2; the CRDs' expressions mean the same in JavaScript).
    text: /^self\.matches\('([^']*)'\)$/,
    predicate: ([pattern = '']) => {
      const re = new RegExp(pattern, 'u');
      return (self) => typeof self !== 'string' || re.test(self);
    },
  },
  {
    // `!(self in ['a','b'])`
    text: /^!\(self in \[((?:'[^']*',?\s*)*)\]\)$/,
    predicate: ([list = '']) => {
      const values = new Set(quotedList(list));
      return (self) => typeof self !== 'string' || !values.has(self);
    },
  },
  {
    // `self in ['a','b']`
    text: /^self in \[((?:'[^']*',?\s*)*)\]$/,
    predicate: ([list = '']) => {
      const values = new Set(quotedList(list));
      return (self) => typeof self !== 'string' || values.has(self);
    },
  },
  {
    // `self.startsWith('prefix')`
    text: /^self\.startsWith\('([^']*)'\)$/,
    predicate: ([prefix = '']) => (self) => typeof self !== 'string' || self.startsWith(prefix),
  },
  {
    // Two fields not both set: `!has(self.a) || !has(self.b)`.
    text: /^!has\(self\.(\w+)\) \|\| !has\(self\.(\w+)\)$/,
    predicate: ([a = '', b = '']) => (self) => !has(self, a) || !has(self, b),
  },
  {
    // A field not set together with another at a value: `!has(self.a) || !has(self.b) || self.b != 'v'`.
    text: /^!has\(self\.(\w+)\) \|\| !has\(self\.(\w+)\) \|\| self\.\2 != '([^']*)'$/,
    predicate: ([a = '', b = '', value = '']) => (self) => !has(self, a) || !has(self, b) || (isObject(self) && self[b] !== value),
  },
];

/** The rule as a predicate on `self`, or undefined when its shape is not one capless evaluates. */
export function celPredicate(rule: string): Predicate | undefined {
  for (const shape of SHAPES) {
    const match = shape.text.exec(rule.trim());
    if (match) return shape.predicate(match.slice(1).map((g) => g ?? ''));
  }
  return undefined;
}

/** What the API server puts as the value of a failed rule: the type of `self`. */
export function celValueType(self: unknown): string {
  if (Array.isArray(self)) return 'array';
  if (isObject(self)) return 'object';
  return typeof self;
}

/**
 * Functions available to templates: Go's text/template built-ins (eq, ne, lt, le, gt, ge, and, or,
 * not, len, index, print, printf) and the hermetic sprig functions ClusterClasses use (quote,
 * squote, toYaml, toJson, replace, upper, lower, trim, trimPrefix, trimSuffix, default, empty,
 * contains, hasPrefix, hasSuffix, join, split list, semverCompare, ternary).
 */

import { stringify } from 'yaml';
import { isRecord } from '../contracts/json.js';
import { TemplateError } from './parse.js';
import { semverCompare } from './semver.js';

export type TemplateFunction = (...args: unknown[]) => unknown;

function str(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (isRecord(value)) return Object.keys(value).length === 0;
  return false;
}

function comparable(a: unknown, b: unknown, name: string): void {
  if (typeof a !== typeof b || (typeof a !== 'string' && typeof a !== 'number' && typeof a !== 'boolean')) {
    throw new TemplateError(`error calling ${name}: incompatible types for comparison`);
  }
}

function ordered(name: string, test: (a: number | string, b: number | string) => boolean): TemplateFunction {
  return (a, b) => {
    comparable(a, b, name);
    if (typeof a === 'boolean' || typeof b === 'boolean') throw new TemplateError(`error calling ${name}: invalid type for comparison`);
    return test(a as number | string, b as number | string);
  };
}

/** fmt.Sprintf for the verbs templates use: %s %d %v %q %t %f and %%. */
export function sprintf(format: unknown, ...args: unknown[]): string {
  let next = 0;
  return str(format).replace(/%([-+ 0#]*\d*(?:\.\d+)?)([sdvqtfx%])/g, (_m, _flags: string, verb: string) => {
    if (verb === '%') return '%';
    if (next >= args.length) return `%!${verb}(MISSING)`;
    const arg = args[next++];
    switch (verb) {
      case 'q':
        return JSON.stringify(str(arg));
      case 'd':
        return typeof arg === 'number' ? String(Math.trunc(arg)) : `%!d(${typeof arg}=${str(arg)})`;
      case 'f':
        return typeof arg === 'number' ? arg.toFixed(6) : `%!f(${typeof arg}=${str(arg)})`;
      case 'x':
        return typeof arg === 'number' ? arg.toString(16) : Buffer.from(str(arg)).toString('hex');
      default:
        return str(arg);
    }
  });
}

export const TEMPLATE_FUNCTIONS: Readonly<Record<string, TemplateFunction>> = {
  eq: (a, ...rest) => {
    if (rest.length === 0) throw new TemplateError('error calling eq: missing argument for comparison');
    return rest.some((b) => {
      comparable(a, b, 'eq');
      return a === b;
    });
  },
  ne: (a, b) => {
    comparable(a, b, 'ne');
    return a !== b;
  },
  lt: ordered('lt', (a, b) => a < b),
  le: ordered('le', (a, b) => a <= b),
  gt: ordered('gt', (a, b) => a > b),
  ge: ordered('ge', (a, b) => a >= b),
  and: (...args) => args.find((a) => isEmpty(a)) ?? args[args.length - 1],
  or: (...args) => args.find((a) => !isEmpty(a)) ?? args[args.length - 1],
  not: (a) => isEmpty(a),
  len: (a) => {
    if (typeof a === 'string' || Array.isArray(a)) return a.length;
    if (isRecord(a)) return Object.keys(a).length;
    throw new TemplateError(`error calling len: len of ${typeof a}`);
  },
  index: (collection, ...keys) => {
    let current = collection;
    for (const key of keys) {
      if (Array.isArray(current) && typeof key === 'number') current = current[key];
      else if (isRecord(current) && typeof key === 'string') current = current[key];
      else throw new TemplateError('error calling index: cannot index');
    }
    return current;
  },
  print: (...args) => args.map(str).join(''),
  println: (...args) => `${args.map(str).join(' ')}\n`,
  printf: (format, ...args) => sprintf(format, ...args),
  quote: (...args) => args.map((a) => JSON.stringify(str(a))).join(' '),
  squote: (...args) => args.map((a) => `'${str(a)}'`).join(' '),
  toYaml: (value) => (value === undefined || value === null ? 'null' : stringify(value, { sortMapEntries: true }).replace(/\n$/, '')),
  toJson: (value) => JSON.stringify(value ?? null),
  replace: (from, to, s) => str(s).split(str(from)).join(str(to)),
  upper: (s) => str(s).toUpperCase(),
  lower: (s) => str(s).toLowerCase(),
  trim: (s) => str(s).trim(),
  trimPrefix: (prefix, s) => (str(s).startsWith(str(prefix)) ? str(s).slice(str(prefix).length) : str(s)),
  trimSuffix: (suffix, s) => (str(suffix) !== '' && str(s).endsWith(str(suffix)) ? str(s).slice(0, -str(suffix).length) : str(s)),
  contains: (sub, s) => str(s).includes(str(sub)),
  hasPrefix: (prefix, s) => str(s).startsWith(str(prefix)),
  hasSuffix: (suffix, s) => str(s).endsWith(str(suffix)),
  default: (fallback, ...given) => (given.length === 0 || isEmpty(given[0]) ? fallback : given[0]),
  empty: (value) => isEmpty(value),
  join: (sep, list) => (Array.isArray(list) ? list.map(str).join(str(sep)) : str(list)),
  split: (sep, s) => Object.fromEntries(str(s).split(str(sep)).map((part, i) => [`_${i}`, part])),
  splitList: (sep, s) => str(s).split(str(sep)),
  list: (...args) => args,
  ternary: (yes, no, condition) => (condition === true ? yes : no),
  semverCompare: (constraint, version) => semverCompare(str(constraint), str(version)),
};

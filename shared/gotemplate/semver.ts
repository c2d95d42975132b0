/**
 * Masterminds/semver constraint checks as sprig's `semverCompare` does them: `v` prefixes are
 * allowed, missing minor/patch are 0, `,` (or space) joins constraints with AND and `||` with OR;
 * operators = != > < >= <= ~ ^. A prerelease version only satisfies a constraint whose version
 * has a prerelease too (so `< v1.25-0` includes v1.24.x but excludes v1.25.0).
 */

import { TemplateError } from './parse.js';

interface Version {
  parts: [number, number, number];
  pre: string[];
}

const VERSION = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

export function parseVersion(text: string): Version | undefined {
  const m = VERSION.exec(text.trim());
  if (!m) return undefined;
  return { parts: [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)], pre: m[4] ? m[4].split('.') : [] };
}

/** One prerelease identifier against another: numbers numerically and below words, words by ASCII. */
function compareIdentifier(x: string, y: string): number {
  const [nx, ny] = [/^\d+$/.test(x), /^\d+$/.test(y)];
  if (nx && ny) return Number(x) - Number(y);
  if (nx !== ny) return nx ? -1 : 1;
  return x === y ? 0 : x < y ? -1 : 1;
}

/** A release is above any of its prereleases; otherwise identifiers left to right, the shorter list first on a tie. */
function comparePre(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return b.length - a.length;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareIdentifier(a[i] ?? '', b[i] ?? '');
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

export function compareVersions(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) {
    const d = (a.parts[i] ?? 0) - (b.parts[i] ?? 0);
    if (d !== 0) return d;
  }
  return comparePre(a.pre, b.pre);
}

function satisfies(version: Version, op: string, target: Version): boolean {
  if (version.pre.length > 0 && target.pre.length === 0) return false;
  const c = compareVersions(version, target);
  switch (op) {
    case '':
    case '=':
      return c === 0;
    case '!=':
      return c !== 0;
    case '>':
      return c > 0;
    case '<':
      return c < 0;
    case '>=':
      return c >= 0;
    case '<=':
      return c <= 0;
    case '~':
      return c >= 0 && version.parts[0] === target.parts[0] && version.parts[1] === target.parts[1];
    case '^':
      return c >= 0 && version.parts[0] === target.parts[0];
    default:
      throw new TemplateError(`improper constraint operator ${op}`);
  }
}

export function semverCompare(constraint: string, versionText: string): boolean {
  const version = parseVersion(versionText);
  if (!version) throw new TemplateError(`error calling semverCompare: invalid semantic version ${JSON.stringify(versionText)}`);
  return constraint.split('||').some((group) => {
    const terms = [...group.matchAll(/(!=|>=|<=|=|>|<|~|\^)?\s*(v?[0-9][0-9A-Za-z.+-]*)/g)];
    if (terms.length === 0) throw new TemplateError(`error calling semverCompare: improper constraint ${JSON.stringify(constraint)}`);
    return terms.every(([, op = '', text = '']) => {
      const target = parseVersion(text);
      if (!target) throw new TemplateError(`error calling semverCompare: improper constraint ${JSON.stringify(constraint)}`);
      return satisfies(version, op, target);
    });
  });
}

/** What a CloudFormation template value refers to: `Ref`, `Fn::GetAtt` and `${…}` in `Fn::Sub`. */

import { isRecord } from '../../../shared/contracts/json.js';

/** Pseudo parameters and the like: never resources. */
const PSEUDO = /^AWS::/;

function subReferences(text: string): string[] {
  return [...text.matchAll(/\$\{([^!}][^}]*)\}/g)].map((m) => (m[1] ?? '').split('.')[0] ?? '').filter((name) => !PSEUDO.test(name));
}

/** Logical ids (resources or parameters) the value refers to, in order, with repeats. */
export function referencesIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(referencesIn);
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([key, inner]) => referencesOfKey(key, inner));
}

function referencesOfKey(key: string, inner: unknown): string[] {
  if (key === 'Ref') return typeof inner === 'string' && !PSEUDO.test(inner) ? [inner] : [];
  if (key === 'Fn::GetAtt') {
    const target = Array.isArray(inner) ? inner[0] : typeof inner === 'string' ? inner.split('.')[0] : undefined;
    return typeof target === 'string' ? [target] : [];
  }
  if (key === 'Fn::Sub') {
    const [text, vars] = Array.isArray(inner) ? [inner[0], inner[1]] : [inner, undefined];
    const own = isRecord(vars) ? Object.keys(vars) : [];
    const named = typeof text === 'string' ? subReferences(text).filter((name) => !own.includes(name)) : [];
    return [...named, ...referencesIn(vars)];
  }
  return referencesIn(inner);
}

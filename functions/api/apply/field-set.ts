/**
 * A set of field paths, as server-side apply records who owns what: the `fieldsV1` form of a
 * managedFields entry (sigs.k8s.io/structured-merge-diff). A path is a list of elements —
 * `f:<field>` of a map, `k:<key fields as JSON>` of an item of a list-map, `v:<value as JSON>` of
 * a set — and a node is a member of the set itself when it has no children or carries `.`.
 * Immutable values; every operation returns a new set.
 */

import { isRecord } from '../../../shared/contracts/json.js';

export interface FieldSet {
  /** This path itself is in the set (a leaf, or a list item that is owned as a whole too). */
  readonly member: boolean;
  readonly children: ReadonlyMap<string, FieldSet>;
}

export const EMPTY_SET: FieldSet = { member: false, children: new Map() };

const SELF = '.';

export function isEmptySet(set: FieldSet): boolean {
  return !set.member && set.children.size === 0;
}

/** A set from its `fieldsV1` JSON; undefined when the JSON is not of that form. */
export function fieldSetFromJson(json: unknown): FieldSet | undefined {
  if (!isRecord(json)) return undefined;
  const keys = Object.keys(json);
  const children = new Map<string, FieldSet>();
  for (const key of keys) {
    if (key === SELF) continue;
    if (!/^[fkvi]:/.test(key)) return undefined;
    const child = fieldSetFromJson(json[key]);
    if (child === undefined) return undefined;
    children.set(key, child);
  }
  return { member: keys.length === 0 || keys.includes(SELF), children };
}

/** The `fieldsV1` JSON of a set, children in sorted order as the API server writes them. */
export function fieldSetToJson(set: FieldSet): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (set.member && set.children.size > 0) out[SELF] = {};
  for (const key of [...set.children.keys()].sort()) {
    const child = set.children.get(key);
    if (child !== undefined && !isEmptySet(child)) out[key] = fieldSetToJson(child);
  }
  return out;
}

/** The set without paths that lead to no member (what a builder leaves behind). */
export function pruned(set: FieldSet): FieldSet {
  const children = new Map<string, FieldSet>();
  for (const [key, child] of set.children) {
    const kept = pruned(child);
    if (!isEmptySet(kept)) children.set(key, kept);
  }
  return { member: set.member, children };
}

export function union(a: FieldSet, b: FieldSet): FieldSet {
  const children = new Map(a.children);
  for (const [key, child] of b.children) {
    const mine = children.get(key);
    children.set(key, mine === undefined ? child : union(mine, child));
  }
  return { member: a.member || b.member, children };
}

/** The paths of `a` that are not in `b`. */
export function difference(a: FieldSet, b: FieldSet): FieldSet {
  const children = new Map<string, FieldSet>();
  for (const [key, child] of a.children) {
    const theirs = b.children.get(key);
    const left = theirs === undefined ? child : difference(child, theirs);
    if (!isEmptySet(left)) children.set(key, left);
  }
  return { member: a.member && !b.member, children };
}

/** The paths in both. */
export function intersection(a: FieldSet, b: FieldSet): FieldSet {
  const children = new Map<string, FieldSet>();
  for (const [key, child] of a.children) {
    const theirs = b.children.get(key);
    if (theirs === undefined) continue;
    const both = intersection(child, theirs);
    if (!isEmptySet(both)) children.set(key, both);
  }
  return { member: a.member && b.member, children };
}

/** Every member path, parents before their children. */
export function memberPaths(set: FieldSet, prefix: readonly string[] = []): string[][] {
  const out: string[][] = set.member && prefix.length > 0 ? [[...prefix]] : [];
  for (const [key, child] of set.children) out.push(...memberPaths(child, [...prefix, key]));
  return out;
}

/** A set holding exactly these paths. */
export function setOfPaths(paths: readonly (readonly string[])[]): FieldSet {
  return paths.reduce<FieldSet>((set, path) => union(set, singlePath(path)), EMPTY_SET);
}

function singlePath(path: readonly string[]): FieldSet {
  return path.reduceRight<FieldSet>((child, element) => ({ member: false, children: new Map([[element, child]]) }), { member: true, children: new Map() });
}

/**
 * A path as the API server prints it in a conflict: `.spec.replicas`,
 * `.spec.taints[key="a",effect="NoSchedule"].value`, `.metadata.finalizers[="x"]`.
 */
export function pathText(path: readonly string[]): string {
  return path
    .map((element) => {
      const body = element.slice(2);
      if (element.startsWith('f:')) return `.${body}`;
      if (element.startsWith('v:')) return `[=${body}]`;
      if (element.startsWith('k:')) {
        const key = keyFields(body);
        return key ? `[${Object.entries(key).map(([name, value]) => `${name}=${JSON.stringify(value)}`).join(',')}]` : `[${body}]`;
      }
      return `[${body}]`;
    })
    .join('');
}

/** The key fields a `k:` element names (the JSON after its prefix); undefined when it is not an object. */
export function keyFields(text: string): Record<string, unknown> | undefined {
  try {
    const key: unknown = JSON.parse(text);
    return isRecord(key) ? key : undefined;
  } catch {
    return undefined;
  }
}

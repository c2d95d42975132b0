/**
 * Server-side apply over object values: the field set an applied configuration names, the value
 * at a path, a configuration merged into the live object, and owned fields removed from it
 * (sigs.k8s.io/structured-merge-diff's merge and remove, over the shapes of apply-schema.ts).
 */

import { type JsonRecord, clone, deepEqual, isRecord } from '../../../shared/contracts/json.js';
import { type Shape, fieldShape, isAtomicMap, itemShape, listKind } from './apply-schema.js';
import { type FieldSet, keyFields, memberPaths, pruned } from './field-set.js';

type MutableSet = { member: boolean; children: Map<string, MutableSet> };

const newNode = (): MutableSet => ({ member: false, children: new Map() });

function child(node: MutableSet, element: string): MutableSet {
  let next = node.children.get(element);
  if (next === undefined) {
    next = newNode();
    node.children.set(element, next);
  }
  return next;
}

/** `k:{"name":"a"}`: an item of a list-map, by its key fields (sorted by name). */
export function keyElement(item: JsonRecord, keys: readonly string[]): string {
  const fields = [...keys].sort().map((key) => [key, item[key]] as const);
  return `k:${JSON.stringify(Object.fromEntries(fields))}`;
}

const valueElement = (value: unknown) => `v:${JSON.stringify(value)}`;

/** The fields a configuration sets, below its top-level fields (the caller leaves out what apply never owns). */
export function fieldSetOf(config: JsonRecord, shape: Shape): FieldSet {
  const root = newNode();
  for (const [field, value] of Object.entries(config)) fill(child(root, `f:${field}`), value, fieldShape(shape, field));
  return pruned(root);
}

function fill(node: MutableSet, value: unknown, shape: Shape): void {
  // A granular map owns its fields, and so an empty one owns nothing.
  if (isRecord(value) && !isAtomicMap(shape)) {
    for (const [field, inner] of Object.entries(value)) fill(child(node, `f:${field}`), inner, fieldShape(shape, field));
    return;
  }
  const list = listKind(shape);
  if (Array.isArray(value) && value.length > 0 && list.type === 'map') {
    for (const item of value) {
      if (!isRecord(item)) continue;
      const itemNode = child(node, keyElement(item, list.keys));
      itemNode.member = true;
      for (const [field, inner] of Object.entries(item)) fill(child(itemNode, `f:${field}`), inner, fieldShape(itemShape(shape), field));
    }
    return;
  }
  if (Array.isArray(value) && value.length > 0 && list.type === 'set') {
    for (const item of value) child(node, valueElement(item)).member = true;
    return;
  }
  node.member = true;
}

const MISSING = Symbol('missing');

/** The value at a path of a field set, or MISSING. */
export function valueAtPath(object: unknown, path: readonly string[]): unknown {
  let current: unknown = object;
  for (const element of path) {
    current = step(current, element);
    if (current === MISSING) return MISSING;
  }
  return current;
}

export function isMissing(value: unknown): boolean {
  return value === MISSING;
}

function step(current: unknown, element: string): unknown {
  const body = element.slice(2);
  if (element.startsWith('f:')) return isRecord(current) && Object.hasOwn(current, body) ? current[body] : MISSING;
  if (!Array.isArray(current)) return MISSING;
  const matches = matcher(element);
  const found = current.find(matches);
  return found === undefined ? MISSING : found;
}

/** Whether a list item is the one a `k:` or `v:` element names (the element parsed once). */
function matcher(element: string): (item: unknown) => boolean {
  const body = element.slice(2);
  if (element.startsWith('v:')) return (item) => JSON.stringify(item) === body;
  const key = element.startsWith('k:') ? keyFields(body) : undefined;
  if (key === undefined) return () => false;
  const fields = Object.entries(key);
  return (item) => isRecord(item) && fields.every(([name, value]) => deepEqual(item[name], value));
}

/**
 * `live` without the member paths of `set`, then without the maps and lists those removals
 * emptied: a field a manager stopped applying, that no one else owns, goes.
 */
export function withoutFields(live: JsonRecord, set: FieldSet): JsonRecord {
  const out = clone(live);
  // A removed list item takes its fields with it (and they can no longer find it by its key).
  const removed = new Set<string>();
  const joined = (path: readonly string[], length: number) => path.slice(0, length).join('\u0000');
  for (const path of memberPaths(set).sort((a, b) => a.length - b.length)) {
    if (path.some((_, i) => removed.has(joined(path, i + 1)))) continue;
    removeAt(out, path);
    removed.add(joined(path, path.length));
  }
  return out;
}

function removeAt(root: JsonRecord, path: readonly string[]): void {
  const parents: unknown[] = [root];
  for (const element of path.slice(0, -1)) {
    const next = step(parents[parents.length - 1], element);
    if (next === MISSING) return;
    parents.push(next);
  }
  const last = path[path.length - 1];
  const parent = parents[parents.length - 1];
  if (last === undefined || !deleteElement(parent, last)) return;
  // Prune what the removal emptied, up to the object itself.
  for (let depth = parents.length - 1; depth > 0; depth--) {
    const container = parents[depth];
    const empty = (isRecord(container) && Object.keys(container).length === 0) || (Array.isArray(container) && container.length === 0);
    const element = path[depth - 1];
    if (!empty || element === undefined) break;
    deleteElement(parents[depth - 1], element);
  }
}

function deleteElement(container: unknown, element: string): boolean {
  if (element.startsWith('f:') && isRecord(container) && Object.hasOwn(container, element.slice(2))) {
    delete container[element.slice(2)];
    return true;
  }
  if (!Array.isArray(container)) return false;
  const index = container.findIndex(matcher(element));
  if (index < 0) return false;
  container.splice(index, 1);
  return true;
}

/**
 * The configuration merged into the live value: maps key by key, list-maps item by item (live
 * order, new items after), sets by value, anything else replaced. A null in the configuration
 * removes the field.
 */
export function mergeInto(live: unknown, config: unknown, shape: Shape): unknown {
  if (isRecord(config) && isRecord(live) && !isAtomicMap(shape)) {
    const out: JsonRecord = { ...live };
    for (const [field, value] of Object.entries(config)) {
      if (value === null) delete out[field];
      else out[field] = mergeInto(live[field], value, fieldShape(shape, field));
    }
    return out;
  }
  const list = listKind(shape);
  if (Array.isArray(config) && Array.isArray(live) && list.type === 'map') {
    const byKey = new Map(config.filter(isRecord).map((c) => [keyElement(c, list.keys), c] as const));
    const liveKeys = new Set(live.filter(isRecord).map((item) => keyElement(item, list.keys)));
    const merged = live.map((item) => {
      const applied = isRecord(item) ? byKey.get(keyElement(item, list.keys)) : undefined;
      return applied === undefined ? item : mergeInto(item, applied, itemShape(shape));
    });
    const added = config.filter((c) => !isRecord(c) || !liveKeys.has(keyElement(c, list.keys)));
    return [...merged, ...withoutNulls(clone(added))];
  }
  if (Array.isArray(config) && Array.isArray(live) && list.type === 'set') {
    return [...live, ...config.filter((value) => !live.some((item) => deepEqual(item, value)))];
  }
  return withoutNulls(clone(config));
}

/** A new value from the configuration: its null fields mean absent. */
function withoutNulls<T>(value: T): T {
  if (Array.isArray(value)) {
    for (const item of value) withoutNulls(item);
    return value;
  }
  if (!isRecord(value)) return value;
  for (const [field, inner] of Object.entries(value)) {
    if (inner === null) delete value[field];
    else withoutNulls(inner);
  }
  return value;
}

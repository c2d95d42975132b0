/** EC2's Describe* filters over plain records: every filter must match (AND), any value of one (OR). */

import { CloudApiError } from '../../../errors/index.js';
import type { Filter, Query } from '../../../ports/ec2.js';

/** How a resource answers a filter name: its values for that name, or undefined when the name is not supported. */
export type FilterFields<T> = (resource: T, name: string) => readonly (string | undefined)[] | undefined;

function globToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`, 'u');
}

function tagFilter(tags: Readonly<Record<string, string>>, name: string): readonly string[] | undefined {
  if (name.startsWith('tag:')) {
    const value = tags[name.slice(4)];
    return value === undefined ? [] : [value];
  }
  if (name === 'tag-key') return Object.keys(tags);
  return undefined;
}

function matches<T extends { tags: Readonly<Record<string, string>> }>(resource: T, filter: Filter, fields: FilterFields<T>, operation: string): boolean {
  const values = tagFilter(resource.tags, filter.name) ?? fields(resource, filter.name);
  if (values === undefined) throw new CloudApiError(operation, 'InvalidParameterValue', `The filter '${filter.name}' is invalid`);
  const patterns = filter.values.map(globToRegExp);
  return values.some((value) => value !== undefined && patterns.some((p) => p.test(value)));
}

/**
 * The resources a query selects. Unknown ids are EC2's `<Prefix>.NotFound` error, as the real
 * API answers (`InvalidInstanceID.NotFound`, `InvalidVpcID.NotFound`, …).
 */
export function select<T extends { tags: Readonly<Record<string, string>> }>(
  all: Iterable<T>,
  idOf: (resource: T) => string,
  query: Query,
  fields: FilterFields<T>,
  operation: string,
  notFoundCode: string,
): T[] {
  let selected = [...all];
  if (query.ids && query.ids.length > 0) {
    const known = new Set(selected.map(idOf));
    const missing = query.ids.filter((id) => !known.has(id));
    if (missing.length > 0) throw new CloudApiError(operation, notFoundCode, `The ID '${missing.join(', ')}' does not exist`);
    const wanted = new Set(query.ids);
    selected = selected.filter((r) => wanted.has(idOf(r)));
  }
  for (const filter of query.filters ?? []) selected = selected.filter((r) => matches(r, filter, fields, operation));
  return selected;
}

import { stringify } from 'yaml';

export type OutputFormat = 'table' | 'wide' | 'yaml' | 'json' | 'name';

export function parseOutputFormat(value: string | undefined): OutputFormat | undefined {
  if (value === undefined) return 'table';
  return value === 'wide' || value === 'yaml' || value === 'json' || value === 'name' ? value : undefined;
}

/** One object as itself; several as a `List`, like kubectl. */
export function renderDocument(value: unknown, format: 'yaml' | 'json'): string {
  return format === 'json' ? `${JSON.stringify(value, null, 2)}\n` : stringify(value, { lineWidth: 0 });
}

export function asList(items: unknown[]): unknown {
  return { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, items };
}

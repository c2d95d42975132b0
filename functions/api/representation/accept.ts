import { NotAcceptableError } from '../../../shared/errors/index.js';

/** How a response body is represented, from the request's Accept header. */
export type Representation = { kind: 'object' } | { kind: 'table'; includeObject: 'None' | 'Metadata' | 'Object' };

interface MediaRange {
  type: string;
  params: Map<string, string>;
}

function parseAccept(header: string): MediaRange[] {
  return header
    .split(',')
    .map((part) => {
      const [type = '', ...params] = part.split(';').map((p) => p.trim());
      const map = new Map<string, string>();
      for (const param of params) {
        const eq = param.indexOf('=');
        if (eq > 0) map.set(param.slice(0, eq).trim().toLowerCase(), param.slice(eq + 1).trim());
      }
      return { type: type.toLowerCase(), params: map };
    })
    .filter((range) => range.type !== '');
}

const JSONISH = new Set(['application/json', 'application/*', '*/*', 'application/yaml']);

/**
 * The first representation the client accepts that the server can produce: a `meta.k8s.io/v1`
 * Table (`application/json;as=Table;v=v1;g=meta.k8s.io`) when `tables` is true, else the object
 * itself as JSON. Other `as=` kinds (PartialObjectMetadata, protobuf) are skipped when something
 * else is acceptable; when nothing is, 406.
 */
export function negotiate(accept: string | undefined, query: URLSearchParams, tables: boolean): Representation {
  if (!accept || accept.trim() === '') return { kind: 'object' };
  const ranges = parseAccept(accept.slice(0, 4096));
  for (const range of ranges) {
    const as = range.params.get('as');
    if (as === undefined) {
      if (JSONISH.has(range.type)) return { kind: 'object' };
      continue;
    }
    const isTable = as === 'Table' && range.params.get('g') === 'meta.k8s.io' && (range.params.get('v') ?? 'v1') === 'v1';
    if (tables && isTable && (range.type === 'application/json' || range.type === '*/*')) return { kind: 'table', includeObject: includeObject(query) };
  }
  throw new NotAcceptableError(`only application/json${tables ? ' and application/json;as=Table;v=v1;g=meta.k8s.io are' : ' is'} served here, not ${JSON.stringify(accept.slice(0, 200))}`);
}

function includeObject(query: URLSearchParams): 'None' | 'Metadata' | 'Object' {
  const value = query.get('includeObject');
  return value === 'None' || value === 'Object' ? value : 'Metadata';
}

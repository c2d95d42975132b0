/**
 * The JSONPath subset printer columns use (kubectl's `{...}` templates, relaxed form): field
 * steps `.a.b`, quoted steps `['cluster\.x-k8s\.io/cluster-name']` (backslash escapes a
 * character), and equality filters on arrays `[?(@.type=="Ready")]`. Anything else does not parse.
 */

type Step = { kind: 'field'; name: string } | { kind: 'filter'; field: string; equals: string };

export type CompiledPath = readonly Step[];

const cache = new Map<string, CompiledPath | undefined>();

/** The steps of a path, or undefined when it uses JSONPath this subset does not have. */
export function compileJsonPath(path: string): CompiledPath | undefined {
  if (cache.has(path)) return cache.get(path);
  const compiled = parse(path.replace(/^\{(.*)\}$/, '$1'));
  if (cache.size < 1000) cache.set(path, compiled);
  return compiled;
}

function parse(path: string): CompiledPath | undefined {
  const steps: Step[] = [];
  let rest = path;
  while (rest.length > 0) {
    const field = /^\.([A-Za-z0-9_-]+)/.exec(rest);
    if (field?.[1]) {
      steps.push({ kind: 'field', name: field[1] });
      rest = rest.slice(field[0].length);
      continue;
    }
    const quoted = /^\['((?:[^'\\]|\\.)*)'\]/.exec(rest);
    if (quoted && quoted[1] !== undefined) {
      steps.push({ kind: 'field', name: quoted[1].replace(/\\(.)/g, '$1') });
      rest = rest.slice(quoted[0].length);
      continue;
    }
    const filter = /^\[\?\(@\.([A-Za-z0-9_-]+)\s*==\s*(?:"([^"]*)"|'([^']*)')\)\]/.exec(rest);
    if (filter?.[1]) {
      steps.push({ kind: 'filter', field: filter[1], equals: filter[2] ?? filter[3] ?? '' });
      rest = rest.slice(filter[0].length);
      continue;
    }
    return undefined;
  }
  return steps;
}

/** Every value the path reaches in the document (a filter can reach several). */
export function evaluateJsonPath(document: unknown, path: CompiledPath): unknown[] {
  let current: unknown[] = [document];
  for (const step of path) current = current.flatMap((value) => apply(step, value));
  return current.filter((value) => value !== undefined && value !== null);
}

function apply(step: Step, value: unknown): unknown[] {
  if (step.kind === 'field') return isPlainRecord(value) && Object.hasOwn(value, step.name) ? [value[step.name]] : [];
  if (!Array.isArray(value)) return [];
  return value.filter((item) => isPlainRecord(item) && item[step.field] === step.equals);
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

import { BadRequestError } from '../../../shared/errors/index.js';

/**
 * How deep a request body (or a patch result) may nest. Cluster API's deepest objects nest about
 * twenty levels; recursive code further down (admission, conversion, structuredClone) must never
 * meet a document deep enough to exhaust the stack.
 */
export const MAX_NESTING_DEPTH = 100;

/**
 * Keys no request may carry anywhere: `__proto__` is an accessor on every plain object, so one
 * assignment of it (in a patch, a merge or a schema parser) swaps an object's prototype. It is
 * refused at the edge, in this one place, for every body parser and every patch type.
 */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__']);

/** A field path for messages: `metadata.labels.a`, `spec.items[2]`. */
export function fieldPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out === '' ? part : `.${part}`;
  return out || '<root>';
}

/**
 * Walks a parsed document without recursion and throws a 400 naming the field when it nests
 * deeper than MAX_NESTING_DEPTH or carries a forbidden key. `what` names the document in messages.
 */
export function checkUntrustedStructure(value: unknown, what: string): void {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const entry = stack.pop();
    if (!entry || typeof entry.value !== 'object' || entry.value === null) continue;
    if (entry.path.length >= MAX_NESTING_DEPTH) throw tooDeep(what, entry.path);
    if (Array.isArray(entry.value)) {
      for (let index = 0; index < entry.value.length; index++) stack.push({ value: entry.value[index], path: [...entry.path, index] });
      continue;
    }
    for (const key of Object.keys(entry.value)) {
      const path = [...entry.path, key];
      if (FORBIDDEN_KEYS.has(key)) {
        const field = fieldPath(path);
        throw new BadRequestError(`${what}: field ${JSON.stringify(field)} is not allowed`, {
          causes: [{ field, reason: 'FieldValueForbidden', message: `the key ${JSON.stringify(key)} is not allowed` }],
        });
      }
      stack.push({ value: Reflect.get(entry.value, key), path });
    }
  }
}

function tooDeep(what: string, path: readonly (string | number)[]): BadRequestError {
  const field = fieldPath(path);
  return new BadRequestError(`${what} nests deeper than ${MAX_NESTING_DEPTH} levels (at ${field})`, {
    causes: [{ field, reason: 'FieldValueInvalid', message: `nests deeper than ${MAX_NESTING_DEPTH} levels` }],
  });
}

import { UsageError } from '../io/usage-error.js';

/** `KIND/NAME` or `KIND NAME` from positionals. */
export function parseTarget(positionals: readonly string[], usage: string): { kind: string; name: string } {
  const [first, second, ...extra] = positionals;
  if (first?.includes('/') && second === undefined) {
    const [kind, name] = first.split('/', 2);
    if (kind && name) return { kind, name };
  }
  if (first && second && !first.includes('/') && extra.length === 0) return { kind: first, name: second };
  throw new UsageError(usage);
}

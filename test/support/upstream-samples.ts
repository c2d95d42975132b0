import { valueAt } from '../../shared/contracts/json.js';
import type { KindRegistry } from '../../shared/contracts/kinds.js';
import { groupOf } from '../../shared/contracts/object.js';

/**
 * Why an upstream example manifest cannot be applied as it is yet, or undefined when it can: a
 * clusterctl template still carries `${VAR}` placeholders, or it names a kind capless does not
 * serve. Tests skip such documents visibly with this reason instead of failing or passing.
 */
export function pendingReason(doc: unknown, kinds: KindRegistry): string | undefined {
  if (/\$\{[A-Za-z_]/.test(JSON.stringify(doc) ?? '')) {
    return 'a clusterctl template: its variable placeholders are substituted first (capless generate cluster)';
  }
  const apiVersion = valueAt(doc, 'apiVersion');
  const kind = valueAt(doc, 'kind');
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return undefined;
  if (!kinds.get(groupOf(apiVersion), kind)) return `kind ${kind} (${apiVersion}) is not served yet`;
  return undefined;
}

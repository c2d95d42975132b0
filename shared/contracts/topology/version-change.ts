/**
 * Cluster API's Cluster webhook on `spec.topology.version` changes (core/webhooks/admission/
 * cluster.go): a version may not go down, and without `kubernetesVersions` in the class (or an
 * upgrade-plan extension, which the Runtime SDK issue brings) it may go up one minor at a time.
 */

import { compareVersions, parseVersion } from '../../gotemplate/semver.js';
import { type FieldError, invalid } from '../validation/field-error.js';

export const TOPOLOGY_VERSION_FIELD = 'spec.topology.version';

export function versionChangeErrors(from: string | undefined, to: string, classKubernetesVersions: readonly string[] = []): FieldError[] {
  if (from === undefined || from === to) return [];
  const [before, after] = [parseVersion(from), parseVersion(to)];
  if (!before || !after) return after ? [] : [invalid(TOPOLOGY_VERSION_FIELD, to, 'must be a valid semantic version')];
  if (compareVersions(after, before) < 0) {
    return [invalid(TOPOLOGY_VERSION_FIELD, to, `version cannot be decreased from "${from}" to "${to}"`)];
  }
  const skipsMinors = after.parts[0] !== before.parts[0] || after.parts[1] > before.parts[1] + 1;
  if (skipsMinors && classKubernetesVersions.length === 0) {
    return [invalid(TOPOLOGY_VERSION_FIELD, to, `version cannot be increased from "${from}" to "${to}": upgrade one minor version at a time`)];
  }
  return [];
}

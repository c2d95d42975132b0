/** The `apiVersion` format: `<group>/<version>` with a DNS-1123 subdomain group, or `<version>` for the core group. */

import { dns1123SubdomainErrors } from './object-meta.js';

/** API versions are DNS-1035 labels (`v1`, `v1beta2`), as CRD version names must be. */
const VERSION = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const VERSION_MAX_LENGTH = 63;

/**
 * Why `apiVersion` is malformed; undefined when it is well formed. Stricter than apimachinery's
 * ParseGroupVersion, which reads `/v1` as the core group: capless refuses it.
 */
export function apiVersionFormatError(apiVersion: string): string | undefined {
  const parts = apiVersion.split('/');
  if (parts.length > 2) return 'must be <group>/<version>, or <version> alone for the core group';
  const [group, version = ''] = parts.length === 2 ? parts : [undefined, parts[0]];
  if (group !== undefined) {
    if (group === '') return 'the group must be non-empty: the core group is written as the version alone (e.g. "v1")';
    const [groupError] = dns1123SubdomainErrors(group);
    if (groupError) return `group ${groupError}`;
  }
  if (version === '') return 'the version must be non-empty';
  if (version.length > VERSION_MAX_LENGTH || !VERSION.test(version)) {
    return `the version must be a lowercase RFC 1035 label of at most ${VERSION_MAX_LENGTH} characters (e.g. "v1beta2")`;
  }
  return undefined;
}

/** Kubernetes versions are semver with a leading `v` (`v1.30.2`, `v1.37.0-beta.0`). */

const SEMVER =
  /^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

export function isKubernetesVersion(version: string): boolean {
  return SEMVER.test(version);
}

export const VERSION_DETAIL = 'must be a valid semantic version with a leading "v" (e.g. v1.30.2)';

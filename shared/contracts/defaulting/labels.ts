/** Label helpers shared by the defaulters. */

export { LABEL_DEPLOYMENT_NAME, LABEL_SET_NAME } from '../object.js';

export function withLabels(
  labels: Record<string, string> | undefined,
  added: Record<string, string>,
): Record<string, string> {
  return { ...(labels ?? {}), ...added };
}

/** CAPI webhooks add the missing `v` to Kubernetes versions (`1.30.0` → `v1.30.0`). */
export function withVersionPrefix(version: string | undefined): string | undefined {
  if (version === undefined || version === '' || version.startsWith('v')) return version;
  return `v${version}`;
}

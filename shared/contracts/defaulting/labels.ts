/** Label helpers shared by the defaulters. */

export const LABEL_DEPLOYMENT_NAME = 'cluster.x-k8s.io/deployment-name';
export const LABEL_SET_NAME = 'cluster.x-k8s.io/set-name';

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

/**
 * The admin kubeconfig Cluster API stores in `<cluster>-kubeconfig` (util/kubeconfig `New`):
 * cluster `<cluster>`, user `<cluster>-admin`, context `<cluster>-admin@<cluster>`.
 */
import { stringify } from 'yaml';

export interface AdminKubeconfigInput {
  clusterName: string;
  /** `https://host:port` (see `apiServerUrl`). */
  server: string;
  caPem: string;
  clientCertPem: string;
  clientKeyPem: string;
}

export const KUBECONFIG_SECRET_KEY = 'value';

export function kubeconfigSecretName(clusterName: string): string {
  return `${clusterName}-kubeconfig`;
}

/** `https://host:port`, with IPv6 literals in brackets (Go `net.JoinHostPort`). */
export function apiServerUrl(host: string, port: number): string {
  return `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

export function buildAdminKubeconfig(input: AdminKubeconfigInput): string {
  const user = `${input.clusterName}-admin`;
  const context = `${user}@${input.clusterName}`;
  return stringify(
    {
      apiVersion: 'v1',
      clusters: [
        {
          cluster: { 'certificate-authority-data': base64(input.caPem), server: input.server },
          name: input.clusterName,
        },
      ],
      contexts: [{ context: { cluster: input.clusterName, user }, name: context }],
      'current-context': context,
      kind: 'Config',
      preferences: {},
      users: [
        {
          name: user,
          user: {
            'client-certificate-data': base64(input.clientCertPem),
            'client-key-data': base64(input.clientKeyPem),
          },
        },
      ],
    },
    { lineWidth: 0 },
  );
}

/**
 * An instance's user data the way CAPA builds it (pkg/cloud/services/secretsmanager,
 * pkg/internal/mime): the bootstrap data gzipped and split into 7,000-byte Secrets Manager
 * secrets `<prefix>-<i>`, and a MIME multipart user data whose `text/cloud-boothook` part fetches,
 * joins, deletes and unpacks them into /etc/secret-userdata.txt, which the `text/x-include-url`
 * part hands to cloud-init. With `cloudInit.insecureSkipSecretsManager` the data goes in raw
 * (gzipped unless `uncompressedUserData`). Pure: names derive from the AWSMachine's uid, so a
 * crashed run that is run again writes the same secrets and the same user data.
 */

// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the boot script is bash, whose ${VAR} is meant literally

import { gzipSync } from 'node:zlib';

export const SECRET_CHUNK_BYTES = 7000;
export const SECRET_NAME_PREFIX = 'aws.cluster.x-k8s.io/';
export const SECRET_USER_DATA_FILE = '/etc/secret-userdata.txt';
const BOUNDARY = 'MIMEBOUNDARY';

export interface SecretChunk {
  name: string;
  value: Uint8Array;
}

export interface UserDataPlan {
  /** Base64 user data for RunInstances. */
  userData: string;
  /** Secrets to create before launching (empty when Secrets Manager is skipped). */
  secrets: SecretChunk[];
  secretPrefix?: string;
}

export function secretPrefixFor(uid: string): string {
  return `${SECRET_NAME_PREFIX}${uid}`;
}

export function secretNames(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
}

export function chunk(data: Uint8Array, size = SECRET_CHUNK_BYTES): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < data.length; offset += size) chunks.push(data.subarray(offset, offset + size));
  return chunks.length > 0 ? chunks : [new Uint8Array()];
}

/** CAPA's secret fetch script, for the region, prefix and chunk count. */
export function bootScript(region: string, prefix: string, chunks: number, endpoint?: string): string {
  const endpointArg = endpoint ? ` --endpoint-url ${endpoint}` : '';
  return [
    '#!/bin/bash',
    'set -o errexit',
    'set -o pipefail',
    'umask 006',
    `REGION="${region}"`,
    `SECRET_PREFIX="${prefix}"`,
    `CHUNKS="${chunks}"`,
    `FILE="${SECRET_USER_DATA_FILE}"`,
    'if [ -f "${FILE}" ]; then exit 0; fi',
    'rm -f "${FILE}.gz"',
    'for i in $(seq 0 $((CHUNKS - 1))); do',
    `  aws secretsmanager${endpointArg} --region "\${REGION}" get-secret-value --output text --query SecretBinary --secret-id "\${SECRET_PREFIX}-\${i}" | base64 -d >> "\${FILE}.gz"`,
    'done',
    'for i in $(seq 0 $((CHUNKS - 1))); do',
    `  aws secretsmanager${endpointArg} --region "\${REGION}" delete-secret --force-delete-without-recovery --secret-id "\${SECRET_PREFIX}-\${i}" || true`,
    'done',
    'gunzip "${FILE}.gz"',
    '',
  ].join('\n');
}

/** The two-part MIME document of pkg/internal/mime (boothook + include-url). */
export function mimeUserData(script: string): string {
  const part = (type: string, body: string) =>
    [`--${BOUNDARY}`, 'Content-Transfer-Encoding: 7bit', `Content-Type: ${type}`, 'Mime-Version: 1.0', '', body].join('\r\n');
  return [
    `Content-Type: multipart/mixed; boundary="${BOUNDARY}"`,
    'MIME-Version: 1.0',
    '',
    part('text/cloud-boothook', script),
    part('text/x-include-url', `file://${SECRET_USER_DATA_FILE}\r\n`),
    `--${BOUNDARY}--`,
    '',
  ].join('\r\n');
}

export interface UserDataInput {
  bootstrapData: Uint8Array;
  uid: string;
  region: string;
  insecureSkipSecretsManager: boolean;
  /** CAPA's `uncompressedUserData` (only with insecureSkipSecretsManager). */
  uncompressedUserData: boolean;
  /** The Secrets Manager endpoint the instance should use (AWS_ENDPOINT_URL_SECRETS_MANAGER), if any. */
  secretsEndpoint?: string;
}

export function planUserData(input: UserDataInput): UserDataPlan {
  if (input.insecureSkipSecretsManager) {
    const data = input.uncompressedUserData ? input.bootstrapData : gzipSync(input.bootstrapData);
    return { userData: Buffer.from(data).toString('base64'), secrets: [] };
  }
  const prefix = secretPrefixFor(input.uid);
  const parts = chunk(gzipSync(input.bootstrapData));
  const names = secretNames(prefix, parts.length);
  const secrets = parts.map((value, i) => ({ name: names[i] ?? `${prefix}-${i}`, value }));
  const document = mimeUserData(bootScript(input.region, prefix, parts.length, input.secretsEndpoint));
  return { userData: Buffer.from(document).toString('base64'), secrets, secretPrefix: prefix };
}

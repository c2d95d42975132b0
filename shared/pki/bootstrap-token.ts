/** kubeadm bootstrap tokens (k8s.io/cluster-bootstrap `GenerateBootstrapToken`): `[a-z0-9]{6}.[a-z0-9]{16}`. */
import { randomInt } from 'node:crypto';

export const BOOTSTRAP_TOKEN_PATTERN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

function randomString(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

export function generateBootstrapToken(): string {
  return `${randomString(6)}.${randomString(16)}`;
}

export interface BootstrapTokenParts {
  /** The public part; the workload Secret is `kube-system/bootstrap-token-<id>`. */
  id: string;
  secret: string;
}

/** Splits a token into id and secret, or returns undefined if it does not match the pattern. */
export function parseBootstrapToken(token: string): BootstrapTokenParts | undefined {
  const match = BOOTSTRAP_TOKEN_PATTERN.exec(token);
  if (!match?.[1] || !match[2]) return undefined;
  return { id: match[1], secret: match[2] };
}

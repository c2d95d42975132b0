import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { stringAt } from '../shared/contracts/json.js';

export const KUBECONFIG_FILE = 'kubeconfig';
const TOKEN_FILE = 'token';

/**
 * The bearer token of this data dir: generated on first start (256 random bits), kept in
 * `<data-dir>/token` (mode 0600) so restarts keep working kubeconfigs.
 */
export async function loadOrCreateToken(dataDir: string): Promise<string> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, TOKEN_FILE);
  try {
    const token = (await readFile(path, 'utf8')).trim();
    if (/^[A-Za-z0-9_-]{32,}$/.test(token)) return token;
  } catch {
    // first start
  }
  const token = randomBytes(32).toString('base64url');
  await writeFile(path, `${token}\n`, { mode: 0o600 });
  return token;
}

/** Writes `<data-dir>/kubeconfig` pointing kubectl and the capless CLI at the embedded API. */
export async function writeKubeconfig(dataDir: string, server: string, token: string): Promise<string> {
  const path = join(dataDir, KUBECONFIG_FILE);
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'capless', cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'capless-admin', user: { token } }],
    contexts: [{ name: 'capless', context: { cluster: 'capless', user: 'capless-admin', namespace: 'default' } }],
    'current-context': 'capless',
  };
  await writeFile(path, stringify(config), { mode: 0o600 });
  return path;
}

/** Reads the server URL and token of a kubeconfig's current context (used by tests and the CLI). */
export function readKubeconfigCredentials(text: string): { server: string; token?: string; namespace?: string } {
  const doc: unknown = parse(text);
  const current = stringAt(doc, 'current-context');
  const contexts = listAt(doc, 'contexts');
  const context = contexts.find((c) => stringAt(c, 'name') === current) ?? contexts[0];
  const clusterName = stringAt(context, 'context', 'cluster');
  const userName = stringAt(context, 'context', 'user');
  const cluster = listAt(doc, 'clusters').find((c) => stringAt(c, 'name') === clusterName);
  const user = listAt(doc, 'users').find((u) => stringAt(u, 'name') === userName);
  const server = stringAt(cluster, 'cluster', 'server');
  if (!server) throw new Error('the kubeconfig has no server for its current context');
  const token = stringAt(user, 'user', 'token');
  const namespace = stringAt(context, 'context', 'namespace');
  return { server, ...(token ? { token } : {}), ...(namespace ? { namespace } : {}) };
}

function listAt(doc: unknown, key: string): unknown[] {
  if (typeof doc !== 'object' || doc === null) return [];
  const value: unknown = Reflect.get(doc, key);
  return Array.isArray(value) ? value : [];
}

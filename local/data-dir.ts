import { randomBytes } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { chmod, lstat, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { stringAt } from '../shared/contracts/json.js';
import { generateServingCertificate } from '../shared/pki/serving-certificate.js';

export const KUBECONFIG_FILE = 'kubeconfig';
const TOKEN_FILE = 'token';

/**
 * Creates the data dir, or narrows a pre-existing one, to mode 0700: it holds the token, the
 * serving key and the store (Secrets included), none of which any other user may read.
 */
export async function ensurePrivateDataDir(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await chmod(dataDir, 0o700);
}

/**
 * Narrows a store directory left by an older capless (or created under a loose umask): the
 * directory and every directory below it to 0700, every file to 0600. Symbolic links are left
 * alone (chmod would follow them out of the tree). A missing directory is nothing to do.
 */
export async function secureStoreDir(path: string): Promise<void> {
  let entries: Dirent[];
  try {
    if (!(await lstat(path)).isDirectory()) return;
    await chmod(path, 0o700);
    entries = await readdir(path, { withFileTypes: true });
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  for (const entry of entries) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) await secureStoreDir(child);
    else if (entry.isFile()) await chmod(child, 0o600);
  }
}

function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && Reflect.get(error, 'code') === 'ENOENT';
}

/**
 * The bearer token of this data dir: generated on first start (256 random bits), kept in
 * `<data-dir>/token` (mode 0600) so restarts keep working kubeconfigs. Makes the data dir private
 * first (`ensurePrivateDataDir`).
 */
export async function loadOrCreateToken(dataDir: string): Promise<string> {
  return loadOrCreateSecretFile(dataDir, TOKEN_FILE);
}

/** The hosted Runtime Extensions' path secret (`<data-dir>/hooks-path-secret`, 0600; ADR 0100). */
export const HOOKS_PATH_SECRET_FILE = 'hooks-path-secret';

export async function loadOrCreateHooksPathSecret(dataDir: string): Promise<string> {
  return loadOrCreateSecretFile(dataDir, HOOKS_PATH_SECRET_FILE);
}

async function loadOrCreateSecretFile(dataDir: string, file: string): Promise<string> {
  await ensurePrivateDataDir(dataDir);
  const path = join(dataDir, file);
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

export interface ServingCertificate {
  cert: string;
  key: string;
}

/**
 * The embedded API's TLS certificate (self-signed, for 127.0.0.1 and localhost): generated on
 * first start, kept in `<data-dir>/serving.crt` and `serving.key` (0600). kubectl sends bearer
 * tokens only over TLS, so the API is served over HTTPS and kubeconfigs trust this certificate.
 */
export async function loadOrCreateServingCertificate(dataDir: string, host: string): Promise<ServingCertificate> {
  const certPath = join(dataDir, 'serving.crt');
  const keyPath = join(dataDir, 'serving.key');
  try {
    return { cert: await readFile(certPath, 'utf8'), key: await readFile(keyPath, 'utf8') };
  } catch {
    const hosts = [...new Set([host, '127.0.0.1', 'localhost'])];
    const pair = await generateServingCertificate({ hosts, now: new Date() });
    await writeFile(keyPath, pair.keyPem, { mode: 0o600 });
    await writeFile(certPath, pair.certPem, { mode: 0o644 });
    return { cert: pair.certPem, key: pair.keyPem };
  }
}

/**
 * Writes `<data-dir>/kubeconfig` pointing kubectl and the capless CLI at the embedded API; with a
 * serving certificate, clients verify the server against it.
 */
export async function writeKubeconfig(dataDir: string, server: string, token: string, servingCert?: string): Promise<string> {
  const path = join(dataDir, KUBECONFIG_FILE);
  const cluster = servingCert
    ? { server, 'certificate-authority-data': Buffer.from(servingCert).toString('base64') }
    : { server };
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'capless', cluster }],
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

import { readFile } from 'node:fs/promises';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { booleanAt, isRecord, stringAt } from '../../shared/contracts/json.js';
import type { CliIo } from '../io/cli-io.js';
import { UsageError } from '../io/usage-error.js';

/** Where the API is and how to talk to it, read from a kubeconfig's current context. */
export interface Connection {
  server: string;
  token?: string;
  /** The context's namespace, `default` when it names none. */
  namespace: string;
  /** PEM of the CA that signs the server's certificate. */
  ca?: string;
  insecureSkipTlsVerify: boolean;
  kubeconfigPath: string;
}

export interface ConnectionFlags {
  kubeconfig?: string;
  dataDir?: string;
}

/** Like kubectl: `--kubeconfig`, then `KUBECONFIG` (first existing entry), then `<data-dir>/kubeconfig` (`--data-dir`, default `.capless`). */
export async function loadConnection(flags: ConnectionFlags, io: CliIo): Promise<Connection> {
  for (const path of candidatePaths(flags, io)) {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      if (path === flags.kubeconfig) throw new UsageError(`cannot read kubeconfig ${path}`);
      continue;
    }
    return { ...(await parseKubeconfig(text, path)), kubeconfigPath: path };
  }
  throw new UsageError(`no kubeconfig found: pass --kubeconfig, set KUBECONFIG, or run 'capless up' (which writes ${join(flags.dataDir ?? '.capless', 'kubeconfig')})`);
}

function candidatePaths(flags: ConnectionFlags, io: CliIo): string[] {
  const absolute = (p: string) => (isAbsolute(p) ? p : resolve(io.cwd, p));
  if (flags.kubeconfig) return [absolute(flags.kubeconfig)];
  const fromEnv = (io.env.KUBECONFIG ?? '').split(delimiter).filter((p) => p !== '');
  if (fromEnv.length > 0 && flags.dataDir === undefined) return fromEnv.map(absolute);
  return [absolute(join(flags.dataDir ?? '.capless', 'kubeconfig'))];
}

/** Parses the current context of a kubeconfig (token auth; CA from data or file). */
export async function parseKubeconfig(text: string, path: string): Promise<Omit<Connection, 'kubeconfigPath'>> {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (error) {
    throw new UsageError(`kubeconfig ${path} is not valid YAML: ${error instanceof Error ? error.message : String(error)}`);
  }
  const current = stringAt(doc, 'current-context');
  const contexts = namedEntries(doc, 'contexts');
  const context = contexts.find((c) => stringAt(c, 'name') === current) ?? contexts[0];
  const cluster = namedEntries(doc, 'clusters').find((c) => stringAt(c, 'name') === stringAt(context, 'context', 'cluster'));
  const user = namedEntries(doc, 'users').find((u) => stringAt(u, 'name') === stringAt(context, 'context', 'user'));
  const server = stringAt(cluster, 'cluster', 'server');
  if (!server) throw new UsageError(`kubeconfig ${path} has no server for its current context`);
  const caData = stringAt(cluster, 'cluster', 'certificate-authority-data');
  const caFile = stringAt(cluster, 'cluster', 'certificate-authority');
  const ca = caData ? Buffer.from(caData, 'base64').toString('utf8') : caFile ? await readFile(resolve(path, '..', caFile), 'utf8') : undefined;
  const token = stringAt(user, 'user', 'token');
  return {
    server: server.replace(/\/+$/, ''),
    namespace: stringAt(context, 'context', 'namespace') ?? 'default',
    insecureSkipTlsVerify: booleanAt(cluster, 'cluster', 'insecure-skip-tls-verify') ?? false,
    ...(token ? { token } : {}),
    ...(ca ? { ca } : {}),
  };
}

function namedEntries(doc: unknown, key: string): unknown[] {
  const value = isRecord(doc) ? doc[key] : undefined;
  return Array.isArray(value) ? value : [];
}

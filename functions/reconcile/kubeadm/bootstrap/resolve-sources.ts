/**
 * What a KubeadmConfig names instead of writing (Cluster API's resolveFiles, resolveUsers and
 * renderTemplates), resolved before its bootstrap data is rendered:
 *
 * - a file's `contentFrom.secret` becomes its `content`, and a user's `passwdFrom.secret` its
 *   `passwd`: the key of a Secret in the config's namespace, as bytes (a Secret or key not there
 *   yet is a transient error, with Cluster API's message, and is tried again);
 * - a file whose `contentFormat` is `Template` is rendered as a Go text/template with
 *   `.controlPlane.version` (the Cluster's control plane's spec.version, as `vMAJOR.MINOR.PATCH`),
 *   up to 1 MiB; a template that does not parse or run is terminal until the spec changes.
 *   `Raw` content is written as it is.
 *
 * Secrets and the control plane are read only when something names them.
 */

import { isRecord, recordAt, stringAt } from '../../../../shared/contracts/json.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import { TerminalError, TransientError } from '../../../../shared/errors/index.js';
import { renderTemplate, TemplateError } from '../../../../shared/gotemplate/execute.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';
import { secretText } from '../common/secret-data.js';

/** Cluster API's maxRenderedTemplateBytes. */
export const MAX_RENDERED_TEMPLATE_BYTES = 1 << 20;

const TOLERANT_VERSION = /^\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?([-+].*)?\s*$/;

/** semver.ParseTolerant, printed with its `v`: `1.35` → `v1.35.0`; undefined when it is not a version. */
export function normalizedVersion(version: string): string | undefined {
  const match = TOLERANT_VERSION.exec(version);
  if (!match) return undefined;
  return `v${Number(match[1])}.${Number(match[2] ?? 0)}.${Number(match[3] ?? 0)}${match[4] ?? ''}`;
}

async function secretKeyValue(store: ObjectStore, namespace: string, selector: unknown, what: string): Promise<string> {
  const name = stringAt(selector, 'secret', 'name') ?? '';
  const key = stringAt(selector, 'secret', 'key') ?? '';
  const secret = await store.get({ group: '', kind: 'Secret', namespace, name });
  if (!secret) throw new TransientError(`failed to resolve ${what} source: secret not found: ${namespace}/${name}`);
  const value = secretText(secret, key);
  if (value === undefined) throw new TransientError(`failed to resolve ${what} source: secret references non-existent secret key: "${key}"`);
  return value;
}

/** The Cluster's control plane's version, for templates; undefined when it has none. */
async function controlPlaneVersion(store: ObjectStore, cluster: StoredObject): Promise<string | undefined> {
  const ref = recordAt(cluster, 'spec', 'controlPlaneRef');
  const kind = stringAt(ref, 'kind');
  const name = stringAt(ref, 'name');
  if (!ref || !kind || !name) return undefined;
  const controlPlane = await store.get({ group: stringAt(ref, 'apiGroup') ?? '', kind, namespace: cluster.metadata.namespace, name });
  const version = stringAt(controlPlane, 'spec', 'version');
  if (version === undefined) return undefined;
  const normalized = normalizedVersion(version);
  if (!normalized) throw new TerminalError('InvalidVersion', `failed to parse control plane version "${version}" for template data`);
  return normalized;
}

function renderFile(path: string, content: string, version: string | undefined): string {
  let rendered: string;
  try {
    rendered = renderTemplate(content, version ? { controlPlane: { version } } : {});
  } catch (error) {
    if (error instanceof TemplateError) throw new TerminalError('InvalidTemplate', `failed to render templates: template for file "${path}": ${error.message}`);
    throw error;
  }
  if (Buffer.byteLength(rendered) > MAX_RENDERED_TEMPLATE_BYTES) {
    throw new TerminalError('InvalidTemplate', `failed to render templates: file "${path}": rendered output exceeds the ${MAX_RENDERED_TEMPLATE_BYTES} byte limit`);
  }
  return rendered;
}

async function resolveFiles(store: ObjectStore, cluster: StoredObject, files: unknown[]): Promise<unknown[]> {
  const templated = files.some((file) => stringAt(file, 'contentFormat') === 'Template');
  const version = templated ? await controlPlaneVersion(store, cluster) : undefined;
  const resolved: unknown[] = [];
  for (const file of files) {
    if (!isRecord(file)) {
      resolved.push(file);
      continue;
    }
    const { contentFrom, contentFormat, ...rest } = file;
    const content = contentFrom === undefined ? (typeof rest.content === 'string' ? rest.content : '') : await secretKeyValue(store, cluster.metadata.namespace, contentFrom, 'file');
    const path = typeof rest.path === 'string' ? rest.path : '';
    const withContent = contentFrom === undefined && contentFormat !== 'Template' ? rest : { ...rest, content: contentFormat === 'Template' ? renderFile(path, content, version) : content };
    resolved.push(withContent);
  }
  return resolved;
}

async function resolveUsers(store: ObjectStore, namespace: string, users: unknown[]): Promise<unknown[]> {
  const resolved: unknown[] = [];
  for (const user of users) {
    if (!isRecord(user) || user.passwdFrom === undefined) {
      resolved.push(user);
      continue;
    }
    const { passwdFrom, ...rest } = user;
    resolved.push({ ...rest, passwd: await secretKeyValue(store, namespace, passwdFrom, 'passwd') });
  }
  return resolved;
}

/** The KubeadmConfig spec with its files and users resolved (the stored object is not changed). */
export async function resolveSpecSources(store: ObjectStore, cluster: StoredObject, spec: Record<string, unknown>): Promise<Record<string, unknown>> {
  const files = Array.isArray(spec.files) ? await resolveFiles(store, cluster, spec.files) : undefined;
  const users = Array.isArray(spec.users) ? await resolveUsers(store, cluster.metadata.namespace, spec.users) : undefined;
  return { ...spec, ...(files ? { files } : {}), ...(users ? { users } : {}) };
}

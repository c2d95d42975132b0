import { z } from 'zod';
import { isRecord, stringAt, valueAt } from '../../shared/contracts/json.js';
import { defaultKinds, type KindInfo } from '../../shared/contracts/kinds.js';
import { groupOf, type KubeObject, versionOf } from '../../shared/contracts/object.js';
import { objectMetaSchema } from '../../shared/contracts/schemas/common/metadata.js';

/** The answer of one API call: status code and parsed JSON body (a Kubernetes object or Status). */
export interface RestResponse {
  status: number;
  body: unknown;
}

/** A list of one kind as the API returns it. */
export interface RestList {
  items: KubeObject[];
}

/** How the client sends a request: `fetch` by default; the deployed-stack test signs with SigV4. */
export type SendRequest = (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => Promise<Response>;

/**
 * A tiny Kubernetes REST client for end-to-end tests: fetch plus the bearer token, paths built
 * from the kind registry (group, version, plural). Only the API is touched, never the store.
 */
export class RestClient {
  constructor(
    private readonly url: string,
    private readonly token: string,
    private readonly send: SendRequest = (url, init) => fetch(url, init),
  ) {}

  /** POST the object to its collection. */
  create(object: KubeObject): Promise<RestResponse> {
    const namespace = object.metadata.namespace ?? 'default';
    return this.call('POST', collectionPath(object.apiVersion, object.kind, namespace), object);
  }

  /** POST an object that must be accepted; throws with the Status text otherwise. */
  async mustCreate(object: KubeObject): Promise<KubeObject> {
    return this.mustCreateDocument(object);
  }

  /**
   * POST a manifest document exactly as written (it may lack metadata, like clusterctl's
   * Metadata); the collection comes from its apiVersion, kind and metadata.namespace.
   */
  async mustCreateDocument(document: unknown): Promise<KubeObject> {
    const apiVersion = stringAt(document, 'apiVersion') ?? '';
    const kind = stringAt(document, 'kind') ?? '';
    const namespace = stringAt(document, 'metadata', 'namespace') ?? 'default';
    const response = await this.call('POST', collectionPath(apiVersion, kind, namespace), document);
    if (response.status !== 201) {
      throw new Error(`create ${kind} ${stringAt(document, 'metadata', 'name')}: ${response.status} ${JSON.stringify(response.body)}`);
    }
    return asObject(response.body);
  }

  async get(apiVersion: string, kind: string, namespace: string, name: string): Promise<KubeObject | undefined> {
    const response = await this.call('GET', `${collectionPath(apiVersion, kind, namespace)}/${name}`);
    if (response.status === 404) return undefined;
    if (response.status !== 200) throw new Error(`get ${kind} ${name}: ${response.status} ${JSON.stringify(response.body)}`);
    return asObject(response.body);
  }

  async list(apiVersion: string, kind: string, namespace: string, labelSelector?: string): Promise<KubeObject[]> {
    const query = labelSelector ? `?labelSelector=${encodeURIComponent(labelSelector)}` : '';
    const response = await this.call('GET', `${collectionPath(apiVersion, kind, namespace)}${query}`);
    if (response.status !== 200) throw new Error(`list ${kind}: ${response.status} ${JSON.stringify(response.body)}`);
    const items = isRecord(response.body) && Array.isArray(response.body.items) ? response.body.items : [];
    return items.map(asObject);
  }

  /** JSON merge patch; retried on 409 (reconcilers write the same objects). */
  async mergePatch(apiVersion: string, kind: string, namespace: string, name: string, patch: unknown): Promise<KubeObject> {
    const path = `${collectionPath(apiVersion, kind, namespace)}/${name}`;
    for (let attempt = 0; ; attempt++) {
      const response = await this.call('PATCH', path, patch, 'application/merge-patch+json');
      if (response.status === 200) return asObject(response.body);
      if (response.status !== 409 || attempt >= 20) {
        throw new Error(`patch ${kind} ${name}: ${response.status} ${JSON.stringify(response.body)}`);
      }
    }
  }

  /** JSON merge patch of the status subresource, as a controller writes status. */
  mergePatchStatus(apiVersion: string, kind: string, namespace: string, name: string, patch: unknown): Promise<KubeObject> {
    return this.mergePatch(apiVersion, kind, namespace, `${name}/status`, patch);
  }

  /** JSON merge patch once, whatever the answer (for requests that must be refused). */
  tryMergePatch(apiVersion: string, kind: string, namespace: string, name: string, patch: unknown): Promise<RestResponse> {
    return this.call('PATCH', `${collectionPath(apiVersion, kind, namespace)}/${name}`, patch, 'application/merge-patch+json');
  }

  delete(apiVersion: string, kind: string, namespace: string, name: string): Promise<RestResponse> {
    return this.call('DELETE', `${collectionPath(apiVersion, kind, namespace)}/${name}`);
  }

  private async call(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<RestResponse> {
    const response = await this.send(`${this.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': contentType }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }
}

/** The kind's registry entry; throws for a kind capless does not serve. */
export function kindInfo(apiVersion: string, kind: string): KindInfo {
  const info = defaultKinds.get(groupOf(apiVersion), kind);
  if (!info) throw new Error(`no kind ${kind} in group ${groupOf(apiVersion)}`);
  return info;
}

/** `/api/v1/namespaces/ns/secrets`, `/apis/group/version/namespaces/ns/plural`, or `/apis/group/version/plural` (cluster-scoped). */
export function collectionPath(apiVersion: string, kind: string, namespace: string): string {
  const info = kindInfo(apiVersion, kind);
  const root = info.group === '' ? `/api/${versionOf(apiVersion)}` : `/apis/${info.group}/${versionOf(apiVersion)}`;
  return info.namespaced ? `${root}/namespaces/${namespace}/${info.plural}` : `${root}/${info.plural}`;
}

const kubeObjectSchema = z.looseObject({
  apiVersion: z.string(),
  kind: z.string(),
  // The same metadata schema admission applies: the API only returns objects it admitted.
  metadata: objectMetaSchema,
  spec: z.record(z.string(), z.unknown()).optional(),
  status: z.record(z.string(), z.unknown()).optional(),
  type: z.string().optional(),
  data: z.record(z.string(), z.string()).optional(),
});

/** The API answers objects; anything else is a test failure worth a clear message. */
export function asObject(value: unknown): KubeObject {
  const parsed = kubeObjectSchema.safeParse(value);
  if (!parsed.success) throw new Error(`not a Kubernetes object: ${JSON.stringify(value)}`);
  return parsed.data;
}

/** A Kubernetes Status cause (`details.causes[]`), its fields as strings ('' when absent). */
export interface StatusCause {
  field: string;
  reason: string;
  message: string;
}

/** The causes of a Status body (none when it has none). */
export function statusCauses(body: unknown): StatusCause[] {
  const causes = valueAt(body, 'details', 'causes');
  return (Array.isArray(causes) ? causes : []).map((c: unknown) => ({
    field: stringAt(c, 'field') ?? '',
    reason: stringAt(c, 'reason') ?? '',
    message: stringAt(c, 'message') ?? '',
  }));
}

/** The fields a Status body's causes name. */
export function statusCauseFields(body: unknown): string[] {
  return statusCauses(body).map((c) => c.field);
}

import { defaultKinds } from '../shared/contracts/kinds.js';
import { groupOf, type KubeObject } from '../shared/contracts/object.js';

/**
 * The benchmark's client: plain HTTP to the management API, as kubectl would send it
 * (POST to the collection, DELETE to the object), counting requests for the cost model.
 */
export class BenchApiClient {
  requests = 0;

  constructor(
    private readonly url: string,
    private readonly token: string,
  ) {}

  /** A 409 after a retried request is fine: the first try got through before its connection broke. */
  async create(obj: KubeObject): Promise<void> {
    const { response, retried } = await this.sendWithRetry('POST', collectionPath(obj), JSON.stringify(obj));
    if (response.status === 409 && retried) return void (await response.body?.cancel());
    if (response.status !== 201 && response.status !== 200) throw await failure('create', obj, response);
    await response.body?.cancel();
  }

  /** A 404 is fine: the object may already be gone (garbage-collected with its owner). */
  async delete(obj: KubeObject): Promise<void> {
    const { response } = await this.sendWithRetry('DELETE', `${collectionPath(obj)}/${obj.metadata.name}`);
    if (response.status >= 300 && response.status !== 404) throw await failure('delete', obj, response);
    await response.body?.cancel();
  }

  /**
   * Retries a request whose connection failed (a kept-alive socket the server closed at the same
   * moment: undici's "fetch failed"); an HTTP status is never retried.
   */
  private async sendWithRetry(method: string, path: string, body?: string): Promise<{ response: Response; retried: boolean }> {
    for (let attempt = 1; ; attempt++) {
      try {
        return { response: await this.send(method, path, body), retried: attempt > 1 };
      } catch (error) {
        if (attempt >= 5 || !(error instanceof TypeError)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  }

  private send(method: string, path: string, body?: string): Promise<Response> {
    this.requests++;
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${this.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  }
}

function collectionPath(obj: KubeObject): string {
  const group = groupOf(obj.apiVersion);
  const info = defaultKinds.get(group, obj.kind);
  if (!info) throw new Error(`the benchmark does not know the kind ${obj.kind}`);
  const namespace = obj.metadata.namespace ?? 'default';
  const root = group === '' ? `/api/${obj.apiVersion}` : `/apis/${obj.apiVersion}`;
  return `${root}/namespaces/${namespace}/${info.plural}`;
}

async function failure(verb: string, obj: KubeObject, response: Response): Promise<Error> {
  const text = await response.text();
  return new Error(`${verb} ${obj.kind} ${obj.metadata.namespace}/${obj.metadata.name}: HTTP ${response.status} ${text.slice(0, 300)}`);
}

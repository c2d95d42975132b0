/**
 * Calls to moto's server for the services the deploy step and the stack reader need and the
 * project has no SDK client for (CloudFormation, S3, SSM, Lambda, STS): signed fetch, XML answers
 * read field by field. Any non-2xx answer throws with the service's message.
 */

import { type Credentials, signRequest } from './sigv4.js';

export const MOTO_REGION = 'us-east-1';
/** moto accepts any key when IAM enforcement is off; these are the runtime's own calls. */
export const MOTO_ADMIN: Credentials = { accessKeyId: 'test', secretAccessKey: 'test' };

export class MotoApi {
  constructor(
    readonly endpoint: string,
    private readonly credentials: Credentials = MOTO_ADMIN,
  ) {}

  async call(service: string, method: string, path: string, body: string | Uint8Array = '', headers: Record<string, string> = {}): Promise<Response> {
    const url = `${this.endpoint}${path}`;
    const signed = signRequest({ method, url, headers, body }, this.credentials, MOTO_REGION, service);
    const response = await fetch(url, { method, headers: signed, ...(method === 'GET' || method === 'HEAD' ? {} : { body: typeof body === 'string' ? body : Buffer.from(body) }) });
    if (!response.ok) throw new Error(`moto ${service} ${method} ${path}: ${response.status} ${(await response.text()).slice(0, 600)}`);
    return response;
  }

  /** A Query-protocol action (CloudFormation, STS); returns the XML answer. */
  async query(service: string, action: string, version: string, params: Record<string, string> = {}): Promise<string> {
    const body = new URLSearchParams({ Action: action, Version: version, ...params }).toString();
    const response = await this.call(service, 'POST', '/', body, { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' });
    return response.text();
  }

  /** A JSON-protocol action (SSM): `X-Amz-Target: <prefix>.<action>`. */
  async json(service: string, target: string, payload: unknown): Promise<unknown> {
    const response = await this.call(service, 'POST', '/', JSON.stringify(payload), {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': target,
    });
    return response.json();
  }

  /** A REST-JSON GET (Lambda). */
  async restJson(service: string, path: string): Promise<unknown> {
    const response = await this.call(service, 'GET', path);
    return response.json();
  }

  async accountId(): Promise<string> {
    const xml = await this.query('sts', 'GetCallerIdentity', '2011-06-15');
    const account = xmlField(xml, 'Account');
    if (!account) throw new Error(`moto STS GetCallerIdentity answered no account: ${xml.slice(0, 300)}`);
    return account;
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity.startsWith('#x') || entity.startsWith('#X')) return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number.parseInt(entity.slice(1), 10));
    return ENTITIES[entity] ?? whole;
  });
}

/** The text of the first `<name>` element, decoded; undefined when absent. */
export function xmlField(xml: string, name: string): string | undefined {
  const match = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml);
  return match?.[1] === undefined ? undefined : decodeXml(match[1]);
}

/** The bodies of every `<member>` element that holds `<marker>` (flat lists such as StackResources). */
export function xmlMembers(xml: string, marker: string): string[] {
  return [...xml.matchAll(/<member>([\s\S]*?)<\/member>/g)].map((m) => m[1] ?? '').filter((body) => body.includes(`<${marker}>`));
}

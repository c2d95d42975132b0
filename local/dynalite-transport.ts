import type { DynaliteRequest, DynaliteResponse } from './dynalite-thread-protocol.js';

/** The parts of the SDK's HttpRequest this transport reads (structurally the SDK's own type). */
interface SdkHttpRequest {
  method: string;
  path: string;
  query?: Record<string, string | Array<string | null> | null>;
  headers: Record<string, string>;
  body?: unknown;
}

export type SendToStore = (request: Omit<DynaliteRequest, 'type' | 'id'>) => Promise<DynaliteResponse>;

/**
 * An SDK request handler that hands each DynamoDB request to the embedded store's thread as a
 * message (ADR 0116): no socket write, no HTTP framing or parsing on either side. The request is
 * still the SDK's real wire request (JSON protocol, signed headers), so the adapter under test is
 * the production one byte for byte; only the bytes' transport differs.
 */
export class ThreadRequestHandler {
  constructor(private readonly send: SendToStore) {}

  async handle(request: SdkHttpRequest): Promise<{ response: { statusCode: number; headers: Record<string, string>; body: Uint8Array } }> {
    const reply = await this.send({ method: request.method, url: `${request.path}${queryString(request.query)}`, headers: request.headers, body: bodyText(request.body) });
    return { response: { statusCode: reply.statusCode, headers: reply.headers, body: Buffer.from(reply.body, 'utf8') } };
  }

  updateHttpClientConfig(): void {}

  httpHandlerConfigs(): Record<string, never> {
    return {};
  }

  destroy(): void {}
}

function bodyText(body: unknown): string {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  throw new Error('the embedded DynamoDB transport sends string or byte bodies only');
}

function queryString(query: SdkHttpRequest['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, v ?? '');
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

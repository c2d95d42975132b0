import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { ApiStatusError } from './api-status-error.js';
import type { Connection } from './connection.js';

export interface RequestOptions {
  query?: Record<string, string | undefined>;
  body?: unknown;
  contentType?: string;
}

/** A small Kubernetes REST client over node:http(s): JSON in, JSON out, `Status` errors as ApiStatusError. */
export class ApiClient {
  constructor(readonly connection: Connection) {}

  async request(method: string, path: string, options: RequestOptions = {}): Promise<unknown> {
    const url = new URL(this.connection.server + path);
    for (const [key, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(key, value);
    const payload = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    const { status, text } = await this.send(method, url, payload, options.contentType ?? 'application/json');
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (status >= 400) throw ApiStatusError.fromResponse(status, body, text.slice(0, 200));
    return body;
  }

  get(path: string, query?: RequestOptions['query']): Promise<unknown> {
    return this.request('GET', path, query ? { query } : {});
  }

  private send(method: string, url: URL, payload: string | undefined, contentType: string): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'capless-cli' };
    if (this.connection.token) headers.authorization = `Bearer ${this.connection.token}`;
    if (payload !== undefined) {
      headers['content-type'] = contentType;
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    const tls = url.protocol === 'https:';
    const send = tls ? httpsRequest : httpRequest;
    const tlsOptions = tls ? { rejectUnauthorized: !this.connection.insecureSkipTlsVerify, ...(this.connection.ca ? { ca: this.connection.ca } : {}) } : {};
    return new Promise((resolve, reject) => {
      const req = send(url, { method, headers, ...tlsOptions }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', (error) => reject(new Error(`cannot reach the API at ${this.connection.server}: ${error.message}`)));
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }
}

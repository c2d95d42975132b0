/**
 * ExtensionTransport over Node's https: the server certificate is verified against the
 * ExtensionConfig's caBundle (ServerName = the URL's host, as Cluster API's client does), redirects
 * are not followed, plain http is refused, and the body read is bounded.
 */

import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { type ExtensionPost, type ExtensionReply, type ExtensionTransport, ExtensionTransportError } from '../../ports/runtime-extensions.js';

/** Cluster API's extension server accepts up to 20 MiB; an answer larger than this is refused. */
export const MAX_EXTENSION_RESPONSE_BYTES = 20 * 1024 * 1024;

export class HttpsExtensionTransport implements ExtensionTransport {
  constructor(private readonly options: { maxResponseBytes?: number } = {}) {}

  post(call: ExtensionPost): Promise<ExtensionReply> {
    let url: URL;
    try {
      url = new URL(call.url);
    } catch (error) {
      return Promise.reject(new ExtensionTransportError(`invalid extension URL: ${String(error)}`));
    }
    if (url.protocol !== 'https:') return Promise.reject(new ExtensionTransportError(`expected https scheme, got ${url.protocol.replace(':', '')}`));
    const limit = this.options.maxResponseBytes ?? MAX_EXTENSION_RESPONSE_BYTES;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const signal = call.timeoutMs ? AbortSignal.timeout(call.timeoutMs) : undefined;
    return new Promise<ExtensionReply>((resolve, reject) => {
      const fail = (message: string, cause?: unknown) => reject(new ExtensionTransportError(message, { cause }));
      const req = httpsRequest(
        url,
        {
          method: 'POST',
          agent: false,
          ...(call.caBundle ? { ca: call.caBundle } : {}),
          ...(isIP(host) === 0 ? { servername: host } : {}),
          rejectUnauthorized: true,
          headers: { 'content-type': 'application/json', accept: 'application/json', 'content-length': Buffer.byteLength(call.body) },
          ...(signal ? { signal } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > limit) {
              req.destroy();
              fail(`response body is over ${limit} bytes`);
              return;
            }
            chunks.push(chunk);
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', (error) => fail(`reading the response failed: ${error.message}`, error));
        },
      );
      req.on('error', (error: Error & { code?: string }) => {
        if (signal?.aborted) fail(`timed out after ${call.timeoutMs} ms`, error);
        else fail(`http call failed: ${error.code ? `${error.code}: ` : ''}${error.message}`, error);
      });
      req.end(call.body);
    });
  }
}

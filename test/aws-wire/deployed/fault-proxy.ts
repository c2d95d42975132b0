/**
 * A fault for the deployed-stack tests, injected from outside the bundle: an HTTP proxy in front
 * of moto that fails the requests `fails` picks and passes every other one through unchanged.
 * A template variant points one function at it with the SDK's own per-service endpoint variable
 * (`AWS_ENDPOINT_URL_DYNAMODB`), so the function's code is the bundle as deployed and nothing in
 * capless knows about the fault.
 */

import { createServer, type IncomingMessage, request, type Server } from 'node:http';

export interface ProxiedRequest {
  method: string;
  path: string;
  /** `x-amz-target`, e.g. `DynamoDB_20120810.Query` (empty when absent). */
  target: string;
}

/** What the proxy does with one request. */
export type Fault = 'pass' | 'fail' | 'hang';

export interface FaultProxy {
  url: string;
  /** Requests failed or held so far, by target. */
  readonly failed: Map<string, number>;
  readonly held: Map<string, number>;
  close(): Promise<void>;
}

function bodyOf(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Starts the proxy on a free local port. A failed request is answered the way DynamoDB answers an
 * internal error (HTTP 500, `InternalServerError`), so the SDK retries it and then throws; a held
 * one stays open until the caller gives up or the proxy closes.
 */
export async function startFaultProxy(upstream: string, fault: (request: ProxiedRequest) => Fault): Promise<FaultProxy> {
  const target = new URL(upstream);
  const failed = new Map<string, number>();
  const held = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    void bodyOf(req).then((body) => {
      const amzTarget = String(req.headers['x-amz-target'] ?? '');
      const verdict = fault({ method: req.method ?? 'GET', path: req.url ?? '/', target: amzTarget });
      if (verdict === 'hang') {
        held.set(amzTarget, (held.get(amzTarget) ?? 0) + 1);
        return;
      }
      if (verdict === 'fail') {
        failed.set(amzTarget, (failed.get(amzTarget) ?? 0) + 1);
        res.writeHead(500, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'fault injected by the deployed-stack test' }));
        return;
      }
      const forwarded = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
        (upstreamRes) => {
          res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
          upstreamRes.pipe(res);
        },
      );
      forwarded.on('error', (error) => {
        res.writeHead(502);
        res.end(String(error));
      });
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error(`the fault proxy listens on no port: ${String(address)}`);
  return {
    url: `http://127.0.0.1:${address.port}`,
    failed,
    held,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

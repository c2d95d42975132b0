/**
 * The HTTP API as API Gateway would serve it from the template's routes: the most specific route
 * wins, `AWS_IAM` routes refuse requests without a valid SigV4 signature (403, as API Gateway
 * does), and the route's function gets a payload-format-2.0 event with the caller's IAM identity
 * in `requestContext.authorizer.iam`; its result becomes the response
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-develop-integrations-lambda.html).
 * JWT and custom authorizers are not emulated: such routes answer 501.
 */

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isRecord } from '../../../shared/contracts/json.js';
import type { DeployedFunction } from './deployed-function.js';
import { type SignableRequest, verifyRequest } from './sigv4.js';
import { type HttpApiRoute, matchRoute } from './template-reader.js';

export interface IamCaller {
  accessKeyId: string;
  secretAccessKey: string;
  userArn: string;
}

export interface HttpApiCounters {
  requests: number;
  refused: number;
  functionErrors: number;
}

const TEXT_TYPES = /^(text\/|application\/(json|[a-z.+-]*\+json|yaml|x-yaml|merge-patch\+json|json-patch\+json|x-www-form-urlencoded))/;

export class HttpApi {
  readonly counters: HttpApiCounters = { requests: 0, refused: 0, functionErrors: 0 };
  private server: Server | undefined;

  constructor(
    private readonly routes: readonly HttpApiRoute[],
    private readonly functions: ReadonlyMap<string, DeployedFunction>,
    private readonly callers: readonly IamCaller[],
    private readonly accountId: string,
    private readonly region: string,
  ) {}

  async listen(): Promise<string> {
    const server = createServer((req, res) => {
      this.serve(req, res).catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: `Internal Server Error: ${String(error)}` }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('the HTTP API is not listening on a TCP port');
    return `http://127.0.0.1:${address.port}`;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.counters.requests += 1;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(Buffer.from(chunk));
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    const method = (req.method ?? 'GET').toUpperCase();
    const route = matchRoute(this.routes, method, url.pathname);
    if (!route) return this.refuse(res, 404, 'Not Found');
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
    const authorized = this.authorize(route, { method, url: url.href, headers, body });
    if ('refusal' in authorized) return this.refuse(res, authorized.refusal.status, authorized.refusal.message);
    const caller = authorized.caller;
    const fn = this.functions.get(route.functionLogicalId);
    if (!fn) return this.refuse(res, 500, `route ${route.routeKey} targets ${route.functionLogicalId}, which is not deployed`);
    const outcome = await fn.invoke(this.event(route, method, url, headers, body, caller, req.socket.remoteAddress ?? '127.0.0.1'));
    if (!outcome.ok) {
      this.counters.functionErrors += 1;
      return this.refuse(res, 500, 'Internal Server Error');
    }
    this.respond(res, outcome.result);
  }

  /** The route's authorizer: SigV4 for AWS_IAM, nothing for NONE; other authorizers are not emulated. */
  private authorize(route: HttpApiRoute, request: SignableRequest): { caller: IamCaller | undefined } | { refusal: { status: number; message: string } } {
    if (route.authorizationType === 'NONE') return { caller: undefined };
    if (route.authorizationType !== 'AWS_IAM') {
      return { refusal: { status: 501, message: `${route.authorizationType} authorizers are not emulated by the deployed-stack runtime` } };
    }
    const verdict = verifyRequest(request, (id) => this.callerFor(id)?.secretAccessKey, this.region, 'execute-api');
    if (!verdict.ok) return { refusal: { status: 403, message: verdict.reason === 'Missing Authentication Token' ? 'Forbidden' : verdict.reason } };
    return { caller: this.callerFor(verdict.accessKeyId) };
  }

  private callerFor(accessKeyId: string): IamCaller | undefined {
    return this.callers.find((c) => c.accessKeyId === accessKeyId);
  }

  private refuse(res: ServerResponse, status: number, message: string): void {
    if (status === 403) this.counters.refused += 1;
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ message }));
  }

  private event(route: HttpApiRoute, method: string, url: URL, headers: Record<string, string>, body: Buffer, caller: IamCaller | undefined, sourceIp: string) {
    const text = TEXT_TYPES.test(headers['content-type'] ?? 'application/json');
    const now = new Date();
    const query: Record<string, string> = {};
    for (const [k, v] of url.searchParams) query[k] = k in query ? `${query[k]},${v}` : v;
    const proxy = route.path.includes('{proxy+}') ? url.pathname.replace(/^\//, '') : undefined;
    return {
      version: '2.0',
      routeKey: route.routeKey,
      rawPath: url.pathname,
      rawQueryString: url.search.replace(/^\?/, ''),
      headers,
      ...(Object.keys(query).length > 0 ? { queryStringParameters: query } : {}),
      ...(proxy ? { pathParameters: { proxy: decodeURIComponent(proxy) } } : {}),
      requestContext: {
        accountId: this.accountId,
        apiId: 'deployed',
        ...(caller
          ? {
              authorizer: {
                iam: { accessKey: caller.accessKeyId, accountId: this.accountId, callerId: caller.accessKeyId, principalOrgId: null, userArn: caller.userArn, userId: caller.accessKeyId },
              },
            }
          : {}),
        domainName: url.host,
        domainPrefix: url.hostname.split('.')[0],
        http: { method, path: url.pathname, protocol: 'HTTP/1.1', sourceIp, userAgent: headers['user-agent'] ?? '' },
        requestId: randomUUID(),
        routeKey: route.routeKey,
        stage: '$default',
        time: now.toUTCString(),
        timeEpoch: now.getTime(),
      },
      ...(body.length > 0 ? { body: text ? body.toString('utf8') : body.toString('base64') } : {}),
      isBase64Encoded: body.length > 0 && !text,
    };
  }

  /** Payload 2.0: a result with statusCode is the response; anything else is a 200 JSON body. */
  private respond(res: ServerResponse, result: unknown): void {
    if (!isRecord(result) || typeof result.statusCode !== 'number') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(typeof result === 'string' ? result : JSON.stringify(result));
      return;
    }
    const headers: Record<string, string | string[]> = {};
    if (isRecord(result.headers)) for (const [k, v] of Object.entries(result.headers)) headers[k] = String(v);
    if (Array.isArray(result.cookies)) headers['set-cookie'] = result.cookies.map(String);
    const raw = typeof result.body === 'string' ? result.body : '';
    res.writeHead(result.statusCode, headers).end(result.isBase64Encoded === true ? Buffer.from(raw, 'base64') : raw);
  }
}

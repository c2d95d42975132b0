/**
 * The HTTP front of the extensions capless hosts (ADR 0100): one handler for the Lambda behind
 * API Gateway and for `capless up`'s HTTPS listener. An extension named `upgrade-gate` is served at
 *
 *   https://<host>/hooks/<path secret>/upgrade-gate/hooks.runtime.cluster.x-k8s.io/v1alpha1/…
 *
 * so its ExtensionConfig's `clientConfig.url` is `https://<host>/hooks/<path secret>/upgrade-gate`.
 * A request without the right secret is refused with 401 before any extension sees it.
 */

import { timingSafeEqual } from 'node:crypto';
import { type ApiRequest, type ApiResponse, jsonResponse } from '../api/http.js';
import type { RuntimeExtension } from './define-extension.js';

export const HOSTED_EXTENSIONS_PREFIX = '/hooks/';

export interface HostedExtensionsOptions {
  extensions: readonly RuntimeExtension[];
  /** The credential in the path; at least 32 characters. */
  pathSecret: string;
}

export function isHostedExtensionsPath(path: string): boolean {
  return path.startsWith(HOSTED_EXTENSIONS_PREFIX);
}

/** The base URL an ExtensionConfig points at for one hosted extension. */
export function hostedExtensionUrl(serverUrl: string, pathSecret: string, extensionName: string): string {
  return `${serverUrl.replace(/\/+$/, '')}${HOSTED_EXTENSIONS_PREFIX}${encodeURIComponent(pathSecret)}/${extensionName}`;
}

function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function hostedExtensionsHandler(options: HostedExtensionsOptions): (request: ApiRequest) => Promise<ApiResponse> {
  if (options.pathSecret.length < 32) throw new Error('the hosted extensions path secret must be at least 32 characters');
  const byName = new Map(options.extensions.map((extension) => [extension.name, extension]));
  return async (request) => {
    if (!isHostedExtensionsPath(request.path)) return jsonResponse(404, { status: 'Failure', message: 'not a hosted extension path' });
    const rest = request.path.slice(HOSTED_EXTENSIONS_PREFIX.length);
    const [secret = '', name = '', ...tail] = rest.split('/');
    if (!sameSecret(decodedSegment(secret), options.pathSecret)) {
      return jsonResponse(401, { status: 'Failure', message: 'Unauthorized: the hosted extensions path secret is missing or wrong' });
    }
    const extension = byName.get(name);
    if (!extension) return jsonResponse(404, { status: 'Failure', message: `no hosted extension named ${JSON.stringify(name.slice(0, 63))}` });
    return extension.handle({ method: request.method, path: `/${tail.join('/')}`, body: request.body });
  };
}

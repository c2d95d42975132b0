import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiRequest, ApiResponse } from '../../functions/api/http.js';
import { startControlPlane } from '../../local/control-plane.js';
import type { TestApiFactory } from './api-server.js';

/**
 * The same TestApi shape over the whole embedded control plane (dynalite in memory, queue,
 * reconcilers), for tests that need objects to converge. `handle` goes over HTTP.
 */
export const startControlPlaneApi: TestApiFactory = async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'capless-plane-'));
  const plane = await startControlPlane({ dataDir, port: 0, persist: false });
  const handle = async (request: ApiRequest): Promise<ApiResponse> => {
    const url = new URL(plane.url + request.path);
    for (const [k, v] of request.query) url.searchParams.set(k, v);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(request.headers)) if (v !== undefined) headers[k] = v;
    const response = await fetch(url, { method: request.method, headers, ...(request.method === 'GET' ? {} : { body: request.body }) });
    return { status: response.status, headers: { 'content-type': response.headers.get('content-type') ?? '' }, body: await response.text() };
  };
  return {
    url: plane.url,
    token: plane.token,
    kubeconfigPath: plane.kubeconfigPath,
    dataDir,
    store: plane.store,
    handle,
    async close() {
      await plane.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};

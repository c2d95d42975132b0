import { describe, expect, it } from 'vitest';
import { handleApiRequest } from '../../../functions/api/api.js';
import type { Principal } from '../../../functions/api/auth.js';
import { stringAt } from '../../../shared/contracts/json.js';
import { memoryApiDeps } from '../../support/api-deps.js';

/**
 * On AWS the HTTP API buffers responses, so the API function has no watch hub: a watch that
 * reaches it (ApiUrl, bypassing the front door) is a 405 that says where watches are served.
 */
const caller: Principal = { name: 'alice', canReadSecrets: false, canWriteSecrets: false };

describe('the API function on AWS (no watch hub)', () => {
  it.each(['watch=true', 'watch=1&resourceVersion=5'])('answers %s on a list with a 405 naming both watch endpoints', async (query) => {
    const response = await handleApiRequest(
      { method: 'GET', path: '/api/v1/namespaces/default/configmaps', query: new URLSearchParams(query), headers: {}, body: '' },
      memoryApiDeps({ authenticate: () => caller }),
    );
    expect(response.status).toBe(405);
    const message = stringAt(JSON.parse(response.body), 'message') ?? '';
    expect(message).toContain('ApiFrontDoorUrl');
    expect(message).toContain('WatchUrl');
  });
});

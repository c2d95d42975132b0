import { stringAt } from '../../../shared/contracts/json.js';
import { BadRequestError } from '../../../shared/errors/index.js';
import type { DeleteOptions } from '../../../shared/ports/object-store.js';
import { parseJsonBody } from '../body.js';
import type { ApiRequest } from '../http.js';

/** DeleteOptions from the query and the optional JSON body (propagationPolicy, preconditions.resourceVersion). */
export function deleteOptions(request: ApiRequest): DeleteOptions {
  const body: unknown = request.body.trim() === '' ? {} : parseJsonBody(request.body, 'the DeleteOptions body');
  const policy = request.query.get('propagationPolicy') ?? stringAt(body, 'propagationPolicy');
  const resourceVersion = stringAt(body, 'preconditions', 'resourceVersion');
  if (policy !== undefined && policy !== 'Background' && policy !== 'Foreground' && policy !== 'Orphan') {
    throw new BadRequestError(`propagationPolicy must be Background, Foreground or Orphan, got ${JSON.stringify(policy.slice(0, 64))}`, {
      causes: [{ field: 'propagationPolicy', reason: 'FieldValueNotSupported', message: policy.slice(0, 64) }],
    });
  }
  return { ...(policy !== undefined ? { propagationPolicy: policy } : {}), ...(resourceVersion ? { resourceVersion } : {}) };
}

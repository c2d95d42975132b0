/** Secret defaults: `type` Opaque, `stringData` merged into `data` (base64) and dropped. */

import { SECRET_TYPE_OPAQUE, type Secret } from '../schemas/corev1/secret.js';

function toBase64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

export function defaultSecret(secret: Secret): Secret {
  const { stringData, ...rest } = secret;
  const merged = stringData
    ? { ...rest.data, ...Object.fromEntries(Object.entries(stringData).map(([k, v]) => [k, toBase64(v)])) }
    : rest.data;
  return { ...rest, type: rest.type || SECRET_TYPE_OPAQUE, ...(merged ? { data: merged } : {}) };
}

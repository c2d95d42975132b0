/** Secret `data` values are base64; these read and write them without trusting the stored shape. */

import type { KubeObject } from '../../../../shared/contracts/object.js';

export function encodeSecretValue(text: string | Uint8Array): string {
  return Buffer.from(text).toString('base64');
}

/** The decoded UTF-8 text of `data[key]`, or undefined when absent. */
export function secretText(secret: KubeObject | undefined, key: string): string | undefined {
  const value = secret?.data?.[key];
  return typeof value === 'string' ? Buffer.from(value, 'base64').toString('utf8') : undefined;
}

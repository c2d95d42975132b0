/** Every SDK failure leaves the adapter as a CloudApiError carrying the service's error code. */

import { CloudApiError } from '../../../errors/index.js';

function codeOf(error: unknown): string {
  if (error instanceof Error) {
    const code = 'Code' in error && typeof error.Code === 'string' ? error.Code : error.name;
    return code && code !== 'Error' ? code : 'UnknownError';
  }
  return 'UnknownError';
}

export async function sdkCall<T>(operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof CloudApiError) throw error;
    throw new CloudApiError(operation, codeOf(error), error instanceof Error ? error.message : String(error), { cause: error });
  }
}

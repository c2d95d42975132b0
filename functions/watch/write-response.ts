import type { Writable } from 'node:stream';
import type { ApiResponse } from '../api/http.js';

/**
 * Writes a response's body to a Node writable (a Lambda response stream): at once, or, for a
 * streamed response, chunk by chunk with back-pressure, until the stream ends itself or the
 * client goes away. Resolves when nothing more will be written.
 */
export function writeResponse(response: ApiResponse, out: Writable): Promise<void> {
  const body = response.stream;
  if (!body) {
    return new Promise((resolve) => out.end(response.bytes ?? response.body, () => resolve()));
  }
  return new Promise((resolve) => {
    let ended = false;
    const finish = () => {
      if (ended) return;
      ended = true;
      resolve();
    };
    out.on('drain', () => body.drained());
    out.once('close', () => {
      if (!ended) body.cancel();
      finish();
    });
    out.once('error', () => {
      body.cancel();
      finish();
    });
    body.start({
      write: (chunk) => out.write(chunk),
      end: () => {
        if (ended) return;
        out.end(() => finish());
      },
    });
  });
}

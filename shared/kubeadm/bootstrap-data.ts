/**
 * Bootstrap data as stored in the Machine's Secret (`value`, `format`), sized against EC2's
 * 16 KB user-data limit (raw bytes, before base64). Over the limit the text is gzipped;
 * cloud-init gunzips user data on its own.
 */
import { gzipSync } from 'node:zlib';

export const USER_DATA_LIMIT_BYTES = 16_384;

export interface BootstrapData {
  /** The cloud-config text, or base64 of its gzip when `gzipped`. */
  value: string;
  format: 'cloud-config';
  /** Size of the user data as the instance receives it (raw text or gzip bytes). */
  bytes: number;
  gzipped: boolean;
  withinUserDataLimit: boolean;
}

export function encodeBootstrapData(text: string): BootstrapData {
  const raw = Buffer.from(text, 'utf8');
  if (raw.length <= USER_DATA_LIMIT_BYTES) {
    return { value: text, format: 'cloud-config', bytes: raw.length, gzipped: false, withinUserDataLimit: true };
  }
  // mtime 0 in the gzip header keeps the output deterministic for a given text.
  const gzipped = gzipSync(raw, { level: 9 });
  return {
    value: gzipped.toString('base64'),
    format: 'cloud-config',
    bytes: gzipped.length,
    gzipped: true,
    withinUserDataLimit: gzipped.length <= USER_DATA_LIMIT_BYTES,
  };
}

/** The user-data bytes an instance receives for this bootstrap data. */
export function userDataBytes(data: BootstrapData): Buffer {
  return data.gzipped ? Buffer.from(data.value, 'base64') : Buffer.from(data.value, 'utf8');
}

import type { GroupKind } from '../../../contracts/object.js';
import { isRecord } from '../../../contracts/json.js';

/** `<group>/<Kind>`: the key of the QUEUE_URLS map (the CDK stack writes the same keys). */
export function queueMapKey(kind: GroupKind): string {
  return `${kind.group}/${kind.kind}`;
}

/** Parses QUEUE_URLS (`{"<group>/<Kind>": "<url>"}`); throws a clear error on anything else. */
export function parseQueueUrls(json: string | undefined): Record<string, string> {
  if (!json) throw new Error('QUEUE_URLS (or DEAD_LETTER_QUEUE_URLS) is not set: expected {"<group>/<Kind>": "<queue url>"}');
  const parsed: unknown = JSON.parse(json);
  if (!isRecord(parsed)) throw new Error('QUEUE_URLS must be a JSON object of queue URLs by <group>/<Kind>');
  const urls: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value !== 'string') throw new Error(`QUEUE_URLS["${key}"] must be a string`);
    urls[key] = value;
  }
  return urls;
}

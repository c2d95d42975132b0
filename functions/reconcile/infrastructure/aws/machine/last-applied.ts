/**
 * CAPA's last-applied annotations on an AWSMachine (JSON objects, as CAPA writes them): what the
 * reconciler applied to the instance last, so that what a user dropped since can be taken off.
 */
import { isRecord } from '../../../../../shared/contracts/json.js';
import { updateFresh } from '../../../engine/references/update-fresh.js';
import type { AwsMachineScope } from './scope.js';

/** The annotation's object (a value that is not a JSON object counts as nothing applied). */
export function lastApplied(annotations: Readonly<Record<string, string>> | undefined, key: string): Record<string, unknown> {
  const text = annotations?.[key];
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** Writes the annotations (key → content) on a fresh copy of the AWSMachine, unless it already says that. */
export async function recordLastApplied(s: AwsMachineScope, contents: Readonly<Record<string, Record<string, unknown>>>): Promise<void> {
  const texts = Object.fromEntries(Object.entries(contents).map(([key, content]) => [key, JSON.stringify(content)]));
  const written = await updateFresh(s.ctx.store, s.object, (current) =>
    Object.entries(texts).every(([key, text]) => current.metadata.annotations?.[key] === text)
      ? undefined
      : { ...current, metadata: { ...current.metadata, annotations: { ...current.metadata.annotations, ...texts } } },
  );
  if (written) s.object = written;
}

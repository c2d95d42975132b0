import type { StatusUpdate } from '../../engine/skeleton/types.js';
import type { ExtensionConfigScope } from './reconciler.js';

/** `status.handlers`: this discovery's handlers, or the last discovered ones when it failed. */
export function computeExtensionConfigStatus(s: ExtensionConfigScope): StatusUpdate {
  const previous = s.object.status?.handlers;
  const handlers = s.discovered ?? (Array.isArray(previous) ? previous : []);
  return { fields: handlers.length > 0 ? { handlers } : {} };
}

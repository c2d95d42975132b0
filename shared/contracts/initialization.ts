/**
 * `status.initialization` as Cluster API writes it (v1beta2): each flag only once it is true
 * (`ptr.To(true)`), and no `initialization` at all before the first one is. Writing `false` would
 * be a change of the field for every watcher of it, with nothing for them to do.
 */
export function initializationStatus(flags: Readonly<Record<string, boolean>>): { initialization?: Record<string, true> } {
  const initialized: Record<string, true> = {};
  for (const [flag, value] of Object.entries(flags)) if (value) initialized[flag] = true;
  return Object.keys(initialized).length > 0 ? { initialization: initialized } : {};
}

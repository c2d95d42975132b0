/**
 * A watch's `changes` for an owner that reads everything of what it watches except the finalizers:
 * a member adding its own finalizer (its first reconcile) tells the owner nothing, and a member
 * held by finalizers while deleting reaches it through `metadata.deletionTimestamp` and its REMOVE.
 */
export const EVERYTHING_BUT_FINALIZERS: readonly string[] = [
  'spec',
  'status',
  'metadata.generation',
  'metadata.deletionTimestamp',
  'metadata.labels',
  'metadata.annotations',
  'metadata.ownerReferences',
];

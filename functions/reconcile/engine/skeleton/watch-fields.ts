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

const CONDITION_PATH = /^status\.conditions\[(\*|[A-Za-z0-9]+)(?:=([A-Za-z0-9]+))?\]$/;

/** The condition type of a path that compares the status of every condition. */
export const EVERY_CONDITION = '*';

/**
 * A `changes` path for a watcher that reads conditions it cannot name in advance (a
 * MachineHealthCheck's rules name the user's own types) but only their status and transition
 * time: it passes when any condition appears, goes, or changes status. A new reason or message
 * alone does not pass (the transition time moves only with the status).
 */
export const EVERY_CONDITION_STATUS = `status.conditions[${EVERY_CONDITION}]`;

/**
 * A `changes` path naming one condition by type, for a watcher that reads a few conditions of
 * what it watches, not their wording:
 * - `status.conditions[Ready]` passes when the condition appears, goes, or changes status;
 * - `status.conditions[Ready=SomeReason]` passes when whether it has that reason changes.
 * A new message, transition time or other reason alone does not pass.
 */
export function conditionPath(type: string, reason?: string): string {
  return `status.conditions[${type}${reason === undefined ? '' : `=${reason}`}]`;
}

/** The condition (and reason) a `changes` path names, or undefined for a plain field path. */
export function conditionOfPath(path: string): { type: string; reason?: string } | undefined {
  const match = CONDITION_PATH.exec(path);
  if (!match?.[1]) return undefined;
  if (match[1] === EVERY_CONDITION && match[2] !== undefined) return undefined;
  return match[2] === undefined ? { type: match[1] } : { type: match[1], reason: match[2] };
}

const VALUE_PATH = /^([A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*)=([A-Za-z0-9]+)$/;

/**
 * A `changes` path for a watcher that reads a field only as "is it this value": `status.phase=Running`
 * passes when the field becomes or stops being `Running`, not when it moves between other values
 * (a control plane reads its Machines' phase only as Running or not; Pending → Provisioning →
 * Provisioned tells it nothing).
 */
export function valueIsPath(path: string, value: string): string {
  const built = `${path}=${value}`;
  if (!VALUE_PATH.test(built)) throw new Error(`not a field path and value: ${built}`);
  return built;
}

/** The field and value a `changes` path compares with, or undefined for any other path. */
export function valueTestOfPath(path: string): { segments: string[]; value: string } | undefined {
  const match = VALUE_PATH.exec(path);
  if (!match?.[1] || match[2] === undefined) return undefined;
  return { segments: match[1].split('.'), value: match[2] };
}

/** Handler entry files (each exports `handler`), relative to the repository root. */
export const ENTRY_POINTS = {
  api: 'functions/api/handler.ts',
  router: 'functions/reconcile/router/handler.ts',
  reconcile: 'functions/reconcile/handler.ts',
  dispatch: 'functions/reconcile/dispatch/handler.ts',
  resync: 'functions/reconcile/resync/handler.ts',
  hooks: 'functions/hooks/handler.ts',
  watch: 'functions/watch/handler.ts',
} as const;

export type EntryPoint = keyof typeof ENTRY_POINTS;

/** Environment variables the handlers read. */
export const ENV = {
  tableName: 'TABLE_NAME',
  /** URL of the shared work queue every kind's requests go to (ADR 0110). */
  workQueueUrl: 'WORK_QUEUE_URL',
  /** JSON object `{"<group>/<Kind>": "<function name>"}`: the reconciler the dispatcher invokes per kind. */
  reconcilerFunctions: 'RECONCILER_FUNCTIONS',
  /** `<group>/<Kind>`: which kind the generic reconcile handler serves. */
  reconcileKind: 'RECONCILE_KIND',
  /** JSON object `{"<group>/<Kind>": "<dead-letter queue url>"}`: where a reconciler dead-letters. */
  deadLetterUrls: 'DEAD_LETTER_QUEUE_URLS',
  /** Seconds a reconcile run holds its object's lease: above the timeout, below the visibility timeout. */
  leaseSeconds: 'LEASE_SECONDS',
  /** Failed tries before a reconciler dead-letters a request (also the SQS redrive's maxReceiveCount). */
  maxReceiveCount: 'MAX_RECEIVE_COUNT',
  /** `true` when IAM lets the function read Secrets; without it the store skips Secret index partitions. */
  secretAccess: 'SECRET_ACCESS',
  /** ARN of the hosted extensions' path secret (functions/hooks/handler.ts). */
  hooksPathSecretArn: 'HOOKS_PATH_SECRET_ARN',
} as const;

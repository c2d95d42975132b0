/** Handler entry files (each exports `handler`), relative to the repository root. */
export const ENTRY_POINTS = {
  api: 'functions/api/handler.ts',
  router: 'functions/reconcile/router/handler.ts',
  reconcile: 'functions/reconcile/handler.ts',
  resync: 'functions/reconcile/resync/handler.ts',
} as const;

export type EntryPoint = keyof typeof ENTRY_POINTS;

/** Environment variables the handlers read. */
export const ENV = {
  tableName: 'TABLE_NAME',
  /** JSON object `{"<group>/<Kind>": "<queue url>"}`. */
  queueUrls: 'QUEUE_URLS',
  /** `<group>/<Kind>`: which kind the generic reconcile handler serves. */
  reconcileKind: 'RECONCILE_KIND',
  /** Receives before SQS dead-letters a request (the reconciler records its condition at the last one). */
  maxReceiveCount: 'MAX_RECEIVE_COUNT',
} as const;

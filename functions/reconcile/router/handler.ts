// Placeholder entry point: replaced by its owner. Exports the Lambda handler.
export async function handler(_event: unknown): Promise<never> {
  throw new Error('not implemented yet: functions/reconcile/router/handler.ts');
}

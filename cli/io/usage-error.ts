/** A mistake in the command line itself (exit code 2). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

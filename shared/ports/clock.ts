export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** RFC 3339 timestamp with second precision, as Kubernetes writes metav1.Time. */
export function timestamp(clock: Clock): string {
  return `${clock.now().toISOString().slice(0, 19)}Z`;
}

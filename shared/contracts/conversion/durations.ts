/** Go `time.Duration` strings (`"10s"`, `"1h30m"`) to whole seconds, for v1beta1 → v1beta2 fields. */

const UNIT_SECONDS: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001, us: 0.000001, 'µs': 0.000001, ns: 1e-9 };
const PART = /(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g;
const WHOLE = /^(?:\d+(?:\.\d+)?(?:h|ms|m|s|us|µs|ns))+$|^0$/;

/** Whole seconds, or the input unchanged when it is not a duration (the schema then rejects it). */
export function durationToSeconds(value: unknown): unknown {
  if (typeof value !== 'string' || !WHOLE.test(value)) return value;
  let seconds = 0;
  for (const match of value.matchAll(PART)) {
    seconds += Number(match[1]) * (UNIT_SECONDS[match[2] ?? 's'] ?? 0);
  }
  return Math.floor(seconds);
}

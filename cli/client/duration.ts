import { UsageError } from '../io/usage-error.js';

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** Go-style durations as kubectl takes them: `30s`, `5m`, `1h30m`, `500ms`; a bare number is seconds. */
export function parseDuration(text: string): number {
  if (/^\d+$/.test(text)) return Number(text) * 1_000;
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) throw new UsageError(`invalid duration ${JSON.stringify(text)} (use e.g. 30s, 5m, 1h)`);
  return parts.reduce((sum, [, value, unit]) => sum + Number(value) * (UNITS[unit ?? 's'] ?? 1_000), 0);
}

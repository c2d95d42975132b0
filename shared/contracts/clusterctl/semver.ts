/** Semantic versions as clusterctl reads provider versions (`v1.14.0`, `v2.0.0-rc.1`; the `v` is optional). */
export interface SemVer {
  major: number;
  minor: number;
  patch: number;
  /** '' for a release. */
  preRelease: string;
  text: string;
}

const SEMVER = /^v?(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** The version, or undefined when it is not semver. */
export function parseSemVer(text: string): SemVer | undefined {
  const match = SEMVER.exec(text);
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]), preRelease: match[4] ?? '', text };
}

/** Negative when a < b, positive when a > b, 0 when equal (build metadata ignored). */
export function compareSemVer(a: SemVer, b: SemVer): number {
  if (a.major !== b.major) return a.major - b.major;
  if (a.minor !== b.minor) return a.minor - b.minor;
  if (a.patch !== b.patch) return a.patch - b.patch;
  if (a.preRelease === b.preRelease) return 0;
  if (a.preRelease === '') return 1;
  if (b.preRelease === '') return -1;
  return comparePreRelease(a.preRelease.split('.'), b.preRelease.split('.'));
}

function comparePreRelease(a: string[], b: string[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const order = compareIdentifier(a[i], b[i]);
    if (order !== 0) return order;
  }
  return 0;
}

/** SemVer §11: a missing identifier sorts first, numbers before text, numbers numerically. */
function compareIdentifier(x: string | undefined, y: string | undefined): number {
  if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? -1 : 1;
  const nx = /^\d+$/.test(x) ? Number(x) : undefined;
  const ny = /^\d+$/.test(y) ? Number(y) : undefined;
  if (nx !== undefined && ny !== undefined) return nx - ny;
  if (nx !== undefined || ny !== undefined) return nx !== undefined ? -1 : 1;
  return x === y ? 0 : x < y ? -1 : 1;
}

/** clusterctl's version tag: the version with a leading `v`. */
export function versionTag(version: SemVer): string {
  return version.text.startsWith('v') ? version.text : `v${version.text}`;
}

/**
 * Kubernetes resource quantities in their canonical text, as Go's `resource.Quantity` marshals
 * them (k8s.io/apimachinery api/resource): the largest suffix that keeps the number whole.
 * `NewQuantity(n, DecimalSI)` prints 2, 448, 1k; `MustParse("8192Mi")` prints 8Gi, 512Mi stays
 * 512Mi, and a quantity under 1Ki prints as plain bytes.
 */

const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'] as const;
const DECIMAL_SUFFIXES = ['', 'k', 'M', 'G', 'T', 'P', 'E'] as const;

function canonical(value: bigint, base: bigint, suffixes: readonly string[]): string {
  let number = value;
  let exponent = 0;
  while (number !== 0n && number % base === 0n && exponent < suffixes.length - 1) {
    number /= base;
    exponent++;
  }
  return `${number}${suffixes[exponent]}`;
}

/** A whole count (CPUs, GPUs) as DecimalSI. */
export function decimalQuantity(count: number): string {
  if (!Number.isSafeInteger(count)) throw new RangeError(`not a whole count: ${count}`);
  return canonical(BigInt(count), 1000n, DECIMAL_SUFFIXES);
}

/** Mebibytes as BinarySI (`fmt.Sprintf("%dMi", n)` parsed and printed again). */
export function mebibytesQuantity(mebibytes: number): string {
  if (!Number.isSafeInteger(mebibytes)) throw new RangeError(`not a whole number of MiB: ${mebibytes}`);
  const bytes = BigInt(mebibytes) * 1024n * 1024n;
  // Go prints a binary quantity whose magnitude is under 1Ki as DecimalSI (plain bytes).
  if (bytes > -1024n && bytes < 1024n) return String(bytes);
  return canonical(bytes, 1024n, BINARY_SUFFIXES);
}

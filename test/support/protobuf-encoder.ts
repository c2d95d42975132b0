/**
 * A minimal Protocol Buffers encoder for tests: builds the bodies client-go's typed clients send
 * (the `k8s\0` magic, a runtime.Unknown envelope, the generated message), independently of the
 * decoder under test.
 */

export type Field = [field: number, value: string | number | bigint | boolean | Uint8Array | Field[]];

function varint(value: bigint): number[] {
  let rest = BigInt.asUintN(64, value);
  const out: number[] = [];
  do {
    const byte = Number(rest & 0x7fn);
    rest >>= 7n;
    out.push(rest > 0n ? byte | 0x80 : byte);
  } while (rest > 0n);
  return out;
}

/** Strings, bytes and nested messages are length-delimited; numbers and booleans are varints. */
export function message(fields: readonly Field[]): Uint8Array {
  const out: number[] = [];
  for (const [field, value] of fields) {
    if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
      out.push(...varint(BigInt(field << 3)), ...varint(typeof value === 'boolean' ? (value ? 1n : 0n) : BigInt(value)));
      continue;
    }
    const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value instanceof Uint8Array ? value : message(value);
    out.push(...varint(BigInt((field << 3) | 2)), ...varint(BigInt(bytes.length)), ...bytes);
  }
  return Uint8Array.from(out);
}

/** A map<string, string|bytes> entry (key = 1, value = 2). */
export function entry(field: number, key: string, value: string | Uint8Array): Field {
  return [field, [[1, key], [2, value]]];
}

/** The body of a typed client-go request: magic, then runtime.Unknown {typeMeta, raw}. */
export function kubernetesBody(apiVersion: string, kind: string, raw: readonly Field[], extra: readonly Field[] = []): Uint8Array {
  const envelope = message([[1, [[1, apiVersion], [2, kind]]], [2, message(raw)], ...extra]);
  return Uint8Array.from([0x6b, 0x38, 0x73, 0x00, ...envelope]);
}

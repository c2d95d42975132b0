/**
 * A protobuf wire-format reader for tests: splits a message into its fields, so an encoding can
 * be decoded back independently of the writer that made it.
 */

export type WireField =
  | { field: number; wire: 'varint'; value: bigint }
  | { field: number; wire: 'fixed64'; value: number }
  | { field: number; wire: 'bytes'; value: Uint8Array };

export function readFields(bytes: Uint8Array): WireField[] {
  const fields: WireField[] = [];
  let offset = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = bytes[offset];
      if (byte === undefined) throw new Error('truncated varint');
      offset += 1;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (offset < bytes.length) {
    const tag = Number(varint());
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (wireType === 0) fields.push({ field, wire: 'varint', value: varint() });
    else if (wireType === 1) {
      if (offset + 8 > bytes.length) throw new Error('truncated fixed64');
      fields.push({ field, wire: 'fixed64', value: new DataView(bytes.buffer, bytes.byteOffset + offset, 8).getFloat64(0, true) });
      offset += 8;
    } else if (wireType === 2) {
      const length = Number(varint());
      if (offset + length > bytes.length) throw new Error('truncated length-delimited field');
      fields.push({ field, wire: 'bytes', value: bytes.subarray(offset, offset + length) });
      offset += length;
    } else throw new Error(`unsupported wire type ${wireType}`);
  }
  return fields;
}

export function bytesOf(field: WireField): Uint8Array {
  if (field.wire !== 'bytes') throw new Error(`field ${field.field} is ${field.wire}, not length-delimited`);
  return field.value;
}

export function textOf(field: WireField): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(bytesOf(field));
}

/**
 * A minimal protocol buffers writer (proto3 wire format): varints, 64-bit doubles and
 * length-delimited fields (strings, bytes, nested messages). Enough to encode a message whose
 * field numbers come from its .proto; no reflection, no decoding.
 */

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_LENGTH_DELIMITED = 2;

export class ProtobufWriter {
  private readonly chunks: Uint8Array[] = [];
  private length = 0;

  /** An unsigned or non-negative integer (int64/uint64/bool on the wire), as a varint. */
  varint(field: number, value: number): this {
    this.tag(field, WIRE_VARINT);
    return this.raw(encodeVarint(value));
  }

  bool(field: number, value: boolean): this {
    return this.varint(field, value ? 1 : 0);
  }

  double(field: number, value: number): this {
    this.tag(field, WIRE_FIXED64);
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setFloat64(0, value, true);
    return this.raw(bytes);
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, WIRE_LENGTH_DELIMITED);
    this.raw(encodeVarint(value.length));
    return this.raw(value);
  }

  /** A nested message, written by `build` into its own writer. */
  message(field: number, build: (writer: ProtobufWriter) => void): this {
    const nested = new ProtobufWriter();
    build(nested);
    return this.bytes(field, nested.finish());
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.length);
    let offset = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }

  private tag(field: number, wireType: number): void {
    if (!Number.isInteger(field) || field < 1 || field > 0x1fffffff) throw new RangeError(`protobuf field number out of range: ${field}`);
    this.raw(encodeVarint(field * 8 + wireType));
  }

  private raw(bytes: Uint8Array): this {
    this.chunks.push(bytes);
    this.length += bytes.length;
    return this;
  }
}

/** Base-128 varint of a non-negative safe integer. */
export function encodeVarint(value: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`varint needs a non-negative safe integer, got ${value}`);
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return Uint8Array.from(bytes);
}

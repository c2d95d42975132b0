import { describe, expect, it } from 'vitest';
import { ProtobufWriter, encodeVarint } from '../../../shared/protobuf/writer.js';
import { readFields } from '../../support/protobuf-reader.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('protobuf writer', () => {
  it.each([
    [0, '00'],
    [1, '01'],
    [127, '7f'],
    [128, '8001'],
    [300, 'ac02'],
    [16_384, '808001'],
    [2 ** 32, '8080808010'],
    [Number.MAX_SAFE_INTEGER, 'ffffffffffffff0f'],
  ])('varint %d is %s', (value, expected) => {
    expect(hex(encodeVarint(value))).toBe(expected);
  });

  it.each([[-1], [1.5], [Number.NaN], [2 ** 53]])('refuses %d as a varint', (value) => {
    expect(() => encodeVarint(value)).toThrow(RangeError);
  });

  it.each([
    ['a varint field', (w: ProtobufWriter) => w.varint(1, 150), '089601'],
    ['a true bool', (w: ProtobufWriter) => w.bool(16, true), '800101'],
    ['a false bool', (w: ProtobufWriter) => w.bool(8, false), '4000'],
    ['a string', (w: ProtobufWriter) => w.string(2, 'testing'), '120774657374696e67'],
    ['a UTF-8 string, its length in bytes', (w: ProtobufWriter) => w.string(1, 'é'), '0a02c3a9'],
    ['an empty message', (w: ProtobufWriter) => w.message(8, () => {}), '4200'],
    ['a nested message', (w: ProtobufWriter) => w.message(3, (n) => n.varint(1, 150)), '1a03089601'],
    ['a double, little-endian', (w: ProtobufWriter) => w.double(7, 1), '39000000000000f03f'],
    ['fields in the order written', (w: ProtobufWriter) => w.string(1, '2.0').varint(2, 1), '0a03322e301001'],
  ])('writes %s', (_name, write, expected) => {
    const writer = new ProtobufWriter();
    write(writer);
    expect(hex(writer.finish())).toBe(expected);
  });

  it.each([[0], [-3], [2 ** 29]])('refuses field number %d', (field) => {
    expect(() => new ProtobufWriter().varint(field, 1)).toThrow(RangeError);
  });

  it('writes a length past one varint byte, and reads back field by field', () => {
    const long = 'x'.repeat(300);
    const bytes = new ProtobufWriter()
      .string(1, long)
      .message(2, (n) => n.double(9, -2147483648).varint(11, 253))
      .finish();
    expect(hex(bytes.subarray(0, 3))).toBe('0aac02');
    const [first, second] = readFields(bytes);
    expect(first).toEqual({ field: 1, wire: 'bytes', value: new TextEncoder().encode(long) });
    expect(second?.field).toBe(2);
    expect(readFields(second?.wire === 'bytes' ? second.value : new Uint8Array())).toEqual([
      { field: 9, wire: 'fixed64', value: -2147483648 },
      { field: 11, wire: 'varint', value: 253n },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { MqttPacketSizeGuard } from './packet-size-guard.js';

/** An MQTT packet with the given remaining length (the body is zeros). */
function packet(remainingLength: number): Buffer {
  const length: number[] = [];
  let value = remainingLength;
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    length.push(byte);
  } while (value > 0);
  return Buffer.concat([Buffer.from([0x30, ...length]), Buffer.alloc(remainingLength)]);
}

describe('MQTT packet size guard', () => {
  it('passes packets up to the limit, however the stream is chunked', () => {
    const stream = Buffer.concat([packet(0), packet(10), packet(1000), packet(200), packet(1000)]);
    for (const chunkSize of [1, 2, 3, 7, 64, stream.length]) {
      const guard = new MqttPacketSizeGuard(1000);
      for (let offset = 0; offset < stream.length; offset += chunkSize) {
        expect(guard.push(stream.subarray(offset, offset + chunkSize))).toBe(true);
      }
    }
  });

  it('stops at the header of the first packet over the limit, before its body', () => {
    const guard = new MqttPacketSizeGuard(1000);
    expect(guard.push(packet(1000))).toBe(true);
    expect(guard.push(packet(1001).subarray(0, 3))).toBe(false);
    expect(guard.push(packet(1))).toBe(false);
  });

  it('refuses a remaining length longer than four bytes', () => {
    const guard = new MqttPacketSizeGuard(Number.MAX_SAFE_INTEGER);
    expect(guard.push(Buffer.from([0x30, 0x80, 0x80, 0x80, 0x80, 0x01]))).toBe(false);
  });
});

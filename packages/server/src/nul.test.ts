import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { containsNul } from './nul.js';

describe('containsNul', () => {
  it('finds a NUL in any string or key of parsed data, at any depth', () => {
    expect(containsNul('a\u0000')).toBe(true);
    expect(containsNul({ a: ['x', { b: 'y\u0000' }] })).toBe(true);
    expect(containsNul({ ['k\u0000']: 1 })).toBe(true);
    const query = Object.create(null) as Record<string, unknown>;
    query.start_id = 'a\u0000b';
    expect(containsNul(query)).toBe(true);
    // What Fastify's query-string parser makes: an object whose prototype has no prototype.
    function EmptyObject() {}
    EmptyObject.prototype = Object.create(null) as object;
    const parsed = new (EmptyObject as unknown as new () => Record<string, unknown>)();
    parsed.start_id = 'a\u0000b';
    expect(containsNul(parsed)).toBe(true);
    let deep: unknown = 'z\u0000';
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    expect(containsNul(deep)).toBe(true);
    expect(containsNul({ a: ['x', { b: 'y\\u0000' }], n: 0, t: true, z: null })).toBe(false);
    expect(containsNul(undefined)).toBe(false);
  });

  it('does not walk into streams, buffers or other objects that parsing never makes', () => {
    // A raw upload's body is a stream: a graph of sockets and servers with circular references.
    // Walking it never ended and took the server down (found by the OTA browser test).
    const stream = new PassThrough();
    const circular: Record<string, unknown> = { name: 'x' };
    circular.self = circular;
    expect(containsNul(stream)).toBe(false);
    expect(containsNul(Buffer.from('a\u0000'))).toBe(false);
    expect(containsNul(new Uint8Array(1_000_000))).toBe(false);
    expect(containsNul(new Map([['a', 'b\u0000']]))).toBe(false);
    expect(
      containsNul(
        new (class Holder {
          value = circular;
        })(),
      ),
    ).toBe(false);
  });
});

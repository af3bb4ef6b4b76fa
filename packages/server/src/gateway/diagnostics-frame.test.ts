import { encode } from 'cborg';
import { describe, expect, it } from 'vitest';
import { decodeDiagnosticsPayload, frameHeader } from './diagnostics-frame.js';

const T = 1_750_000_000;
const frame = (kind: number, body: Uint8Array) =>
  Buffer.concat([frameHeader(kind, body.length), Buffer.from(body)]);

describe('decodeDiagnosticsPayload', () => {
  it('reads an Xtensa crash with its backtrace, registers and corrupt flag', () => {
    const result = decodeDiagnosticsPayload(
      frame(
        0x02,
        encode({
          diag: {
            ts: T * 1e6,
            sha256: 'cd'.repeat(32),
            data: {
              crash: {
                exc_val: [0x400d1a2b, 28, 4],
                bt: [0x400d1a2b, 0x400d2000],
                bt_corrupt: true,
                a_reg: Array.from({ length: 16 }, (_, i) => i),
              },
            },
          },
        }),
      ),
    );
    expect(result.ok).toBe(true);
    if (!result.ok || result.kind === 'config') return;
    const crash = result.message.logs?.[0];
    expect(crash?.type === 'crash' && crash.data).toMatchObject({
      pc: '0x400d1a2b',
      cause: 'LoadProhibited (28)',
      vaddr: '0x00000004',
      corrupted: true,
      backtrace: [{ address: '0x400d1a2b' }, { address: '0x400d2000' }],
      registers: { a15: '0x0000000f' },
    });
    expect(result.elfMissing.has(0)).toBe(true);
  });

  it('turns metrics and byte-string variables into series and tree values', () => {
    const result = decodeDiagnosticsPayload(
      frame(
        0x02,
        encode({
          diag: {
            ts: T * 1e6,
            data: {
              metrics: [{ n: ['M', 'wifi', 'rssi'], v: -70, t: T * 1e6 }],
              params: [
                { n: ['P', 'wifi', 'bssid'], v: new Uint8Array([1, 2, 3, 4, 5, 255]), t: T * 1e6 },
              ],
            },
          },
        }),
      ),
    );
    if (!result.ok || result.kind === 'config') throw new Error('not decoded');
    expect(result.message.metrics).toEqual([{ id: 'wifi.rssi', points: [{ ts: T, val: -70 }] }]);
    expect(result.message.variables?.[0]?.children?.[0]?.values?.data[0]?.val).toBe(
      '01:02:03:04:05:ff',
    );
  });

  it('drops records taken before the node had valid time', () => {
    const result = decodeDiagnosticsPayload(
      frame(
        0x02,
        encode({ diag: { data: { metrics: [{ n: ['M', 'heap', 'free'], v: 1, t: 5_000_000 }] } } }),
      ),
    );
    if (!result.ok || result.kind === 'config') throw new Error('not decoded');
    expect(result.message.metrics).toBeUndefined();
  });

  it('accepts configuration frames without storing anything', () => {
    expect(decodeDiagnosticsPayload(frame(0x12, encode({ config: {} })))).toEqual({
      ok: true,
      kind: 'config',
    });
  });

  it.each([
    ['an empty payload', Buffer.alloc(0)],
    ['a header alone, shorter than declared', frameHeader(0x02, 10)],
    [
      'trailing bytes after the CBOR body',
      Buffer.concat([frame(0x02, encode({ diag: {} })), Buffer.from([0])]),
    ],
    ['an unknown kind', frame(0x55, encode({ diag: {} }))],
    ['broken CBOR', frame(0x02, new Uint8Array([0xbf, 0x61]))],
    ['a body that is not a map', frame(0x02, encode([1, 2]))],
    ['a data frame without diag', frame(0x02, encode({ other: 1 }))],
    ['JSON that does not parse', Buffer.from('{nope')],
  ])('rejects %s', (_name, payload) => {
    expect(decodeDiagnosticsPayload(payload).ok).toBe(false);
  });
});

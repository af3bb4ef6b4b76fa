import { DiagnosticsMessageSchema } from '@fleetdeck/contract';
import { decode } from 'cborg';
import { describe, expect, it } from 'vitest';
import {
  bootReport,
  diagnosticsReport,
  encodeDiagnostics,
  RESET_REASON,
  type DiagnosticsNode,
} from './diagnostics.js';
import { Rng } from './prng.js';

const T = 1_750_000_000;
const washer: DiagnosticsNode = {
  type: 'Washing Machine',
  fwVersion: '3.0.0',
  chip: 'esp32',
  binary: false,
};

describe('simulated diagnostics', () => {
  it('reports heap, RSSI and the drum speed of a washer, valid against the contract', () => {
    const report = diagnosticsReport(washer, new Rng(7), T, T + 300, 60);
    expect(DiagnosticsMessageSchema.safeParse(report).success).toBe(true);
    expect(report.metrics?.map((metric) => metric.id)).toEqual([
      'heap.free',
      'wifi.rssi',
      'drum.speed',
    ]);
    expect(report.metrics?.[2]?.points).toHaveLength(5);
  });

  it('crashes with a backtrace of firmware methods and reboots with the panic reason', () => {
    const report = diagnosticsReport(washer, new Rng(3), T, T + 300, 60, {
      crash: 1,
      warning: 0,
      error: 0,
    });
    const crash = report.logs?.find((log) => log.type === 'crash');
    expect(crash?.type === 'crash' && crash.data.backtrace[0]?.file).toMatch(/^main\//);
    expect(report.logs?.find((log) => log.type === 'reboot')?.data).toMatchObject({
      reset_reason: 'ESP_RST_PANIC',
    });
  });

  it('is the same for the same seed', () => {
    expect(diagnosticsReport(washer, new Rng(9), T, T + 600, 60)).toEqual(
      diagnosticsReport(washer, new Rng(9), T, T + 600, 60),
    );
  });

  it('frames binary nodes as kind 0x02, little-endian length and CBOR', () => {
    const node = { ...washer, chip: 'esp32c3' as const, binary: true };
    const report = diagnosticsReport(node, new Rng(3), T, T + 300, 60, {
      crash: 1,
      warning: 1,
      error: 1,
    });
    const bytes = encodeDiagnostics(node, report);
    expect(bytes[0]).toBe(0x02);
    expect(bytes.readUInt16LE(1)).toBe(bytes.length - 3);
    const body = decode(bytes.subarray(3)) as {
      diag: { data: { crash: { mepc: number }; metrics: unknown[] } };
    };
    expect(body.diag.data.metrics).toHaveLength(15);
    expect(body.diag.data.crash.mepc).toBeGreaterThan(0x42000000);
  });

  it('boots with the reset reason, as a reboot log in JSON and a boot record in a frame', () => {
    const report = bootReport(washer, RESET_REASON.software, T);
    const logs = DiagnosticsMessageSchema.parse(report).logs ?? [];
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      type: 'reboot',
      data: { reason: 3, reset_reason: 'ESP_RST_SW' },
    });
    const bytes = encodeDiagnostics({ ...washer, binary: true }, report);
    const body = decode(bytes.subarray(3)) as { diag: { data: { boot: Record<string, unknown> } } };
    expect(body.diag.data.boot).toMatchObject({ ts: T * 1_000_000, reason: 3, app_ver: '3.0.0' });
  });
});

import {
  DiagnosticsMessageSchema,
  ESP_RESET_REASONS,
  INSIGHTS_FRAME_KIND,
  type DiagnosticsLogInput,
  type DiagnosticsMessage,
  type NodeType,
} from '@fleetdeck/contract';
import { encode } from 'cborg';
import type { Rng } from './prng.js';

/**
 * Diagnostics a simulated appliance sends on `diagnostics/from-node` (rainmaker-contract B.8):
 * periodic metrics (free heap, Wi-Fi RSSI and one per appliance type), variables, occasional
 * warnings and errors, and now and then a crash with a plausible backtrace followed by a reboot.
 * A node either speaks the JSON form or the ESP Insights binary frame (kind byte, little-endian
 * length, CBOR). Pure functions of the node's seeded Rng, so a fleet is the same on every run.
 */

/** The per-type metric: AC compressor current, refrigerator cabinet temperature, washer drum speed. */
const TYPE_METRIC: Record<
  NodeType,
  { id: string; label: string; unit: string; base: number; spread: number }
> = {
  'Air Conditioner': {
    id: 'compressor.current',
    label: 'Compressor current',
    unit: 'A',
    base: 6.5,
    spread: 1.5,
  },
  Refrigerator: {
    id: 'cabinet.temp',
    label: 'Cabinet temperature',
    unit: '°C',
    base: 4,
    spread: 1.2,
  },
  'Washing Machine': { id: 'drum.speed', label: 'Drum speed', unit: 'rpm', base: 900, spread: 300 },
};

/** Firmware functions a crash may stop in, per appliance type (method, file, line). */
const CRASH_SITES: Record<NodeType, Array<[string, string, number]>> = {
  'Air Conditioner': [
    ['compressor_pid_step', 'main/compressor.c', 214],
    ['louver_set_angle', 'main/louver.c', 88],
  ],
  Refrigerator: [
    ['defrost_timer_cb', 'main/defrost.c', 131],
    ['door_sensor_isr', 'main/door.c', 57],
  ],
  'Washing Machine': [
    ['drum_motor_set_rpm', 'main/drum.c', 142],
    ['wash_cycle_step', 'main/cycle.c', 77],
  ],
};
const COMMON_FRAMES: Array<[string, string, number]> = [
  ['app_main_loop', 'main/app_main.c', 203],
  ['esp_rmaker_work_queue_task', 'components/esp_rainmaker/src/core/esp_rmaker_work_queue.c', 95],
  ['vPortTaskWrapper', 'FreeRTOS-Kernel/portable/xtensa/port.c', 162],
];
const WARNINGS = [
  ['wifi', 'RSSI below -80 dBm, roaming'],
  ['mqtt', 'Publish queue 80% full'],
  ['ota', 'No OTA partition marked valid yet'],
] as const;
const ERRORS = [
  ['wifi', 'Disconnected, reason 201 (NO_AP_FOUND)'],
  ['sensor', 'NTC read out of range'],
] as const;

/** What the simulator knows of a node when it builds its diagnostics. */
export interface DiagnosticsNode {
  type: NodeType;
  fwVersion: string;
  /** ESP32 (Xtensa) or ESP32-C3 (RISC-V) addresses and register sets. */
  chip: 'esp32' | 'esp32c3';
  /** Speaks the ESP Insights binary frame instead of JSON. */
  binary: boolean;
}

/** Rates: chances per report. */
export interface DiagnosticsRates {
  crash: number;
  warning: number;
  error: number;
}

export const DEFAULT_DIAGNOSTICS_RATES: DiagnosticsRates = {
  crash: 0.002,
  warning: 0.05,
  error: 0.02,
};

/** `esp_reset_reason_t` numbers the fleet reports at boot. */
export const RESET_REASON = { powerOn: 1, software: 3, panic: 4 } as const;

const hex = (n: number) => `0x${(n >>> 0).toString(16).padStart(8, '0')}`;

/** One report covering `[from, to)` (epoch seconds), metrics every `stepSeconds`. */
export function diagnosticsReport(
  node: DiagnosticsNode,
  rng: Rng,
  from: number,
  to: number,
  stepSeconds: number,
  rates: DiagnosticsRates = DEFAULT_DIAGNOSTICS_RATES,
): DiagnosticsMessage {
  const typeMetric = TYPE_METRIC[node.type];
  const points = (base: number, spread: number) => {
    const out = [];
    for (let ts = from; ts < to && out.length < 1000; ts += stepSeconds)
      out.push({ ts, val: Math.round((base + rng.float(-spread, spread)) * 10) / 10 });
    return out;
  };
  const logs: DiagnosticsLogInput[] = [];
  const codeBase = node.chip === 'esp32' ? 0x400d0000 : 0x42000000;
  if (rng.chance(rates.crash)) {
    const ts = rng.int(from, to - 1);
    const sites = [rng.pick(CRASH_SITES[node.type]), ...COMMON_FRAMES];
    const backtrace = sites.map(([method, file, line]) => ({
      address: hex(codeBase + rng.int(0x1000, 0xfffff)),
      method,
      file,
      line,
    }));
    const xtensa = node.chip === 'esp32';
    const registers: Record<string, string> = {};
    for (let i = 0; i < (xtensa ? 16 : 8); i++)
      registers[`a${i}`] = hex(0x3ffb0000 + rng.int(0, 0xffff));
    if (!xtensa) {
      registers.ra = backtrace[1]?.address ?? hex(codeBase);
      registers.sp = hex(0x3fc90000 + rng.int(0, 0xffff));
    }
    logs.push({
      ts,
      type: 'crash',
      tag: 'panic',
      message: `Guru Meditation Error: Core 0 panic'ed (${xtensa ? 'LoadProhibited' : 'Load access fault'})`,
      data: {
        prev_app_version: node.fwVersion,
        pc: backtrace[0]?.address ?? hex(codeBase),
        registers,
        cause: xtensa ? 'LoadProhibited (28)' : 'Load access fault (5)',
        vaddr: hex(rng.int(0, 0x40)),
        task: 'main',
        backtrace,
        corrupted: rng.chance(0.1),
      },
    });
    logs.push({
      ts: Math.min(ts + 2, to - 1),
      type: 'reboot',
      tag: 'boot',
      message: 'Reboot: ESP_RST_PANIC',
      data: {
        reason: 4,
        reset_reason: 'ESP_RST_PANIC',
        app_version: node.fwVersion,
        chip: node.chip,
      },
    });
  }
  if (rng.chance(rates.warning)) {
    const [tag, message] = rng.pick(WARNINGS);
    logs.push({ ts: rng.int(from, to - 1), type: 'warning', tag, message });
  }
  if (rng.chance(rates.error)) {
    const [tag, message] = rng.pick(ERRORS);
    logs.push({ ts: rng.int(from, to - 1), type: 'error', tag, message });
  }
  logs.push({ ts: to - 1, type: 'event', tag: 'diag', message: 'Diagnostics report sent' });
  const rssi = Math.round(rng.float(-82, -45));
  return {
    info: projectInfo(node),
    logs,
    metrics: [
      {
        id: 'heap.free',
        label: 'Free heap',
        unit: 'bytes',
        path: 'heap',
        points: points(82_000, 6_000),
      },
      { id: 'wifi.rssi', label: 'Wi-Fi RSSI', unit: 'dBm', path: 'Wi-Fi', points: points(rssi, 4) },
      { ...typeMetric, points: points(typeMetric.base, typeMetric.spread) },
    ],
    variables: [
      {
        label: 'Wi-Fi',
        type: 'folder',
        children: [
          {
            label: 'RSSI',
            type: 'param',
            id: 'wifi.rssi_now',
            values: { data: [{ val: rssi, ts: to - 1 }] },
          },
          {
            label: 'Channel',
            type: 'param',
            id: 'wifi.channel',
            values: { data: [{ val: rng.int(1, 11), ts: to - 1 }] },
          },
        ],
      },
    ],
  };
}

/**
 * The report firmware sends right after booting: device info and one reboot log with the
 * `esp_reset_reason_t` (power-on, software restart after an OTA update, panic…).
 */
export function bootReport(node: DiagnosticsNode, reason: number, ts: number): DiagnosticsMessage {
  return {
    info: projectInfo(node),
    logs: [
      {
        ts,
        type: 'reboot',
        tag: 'boot',
        message: `Reboot: ${ESP_RESET_REASONS[reason] ?? 'ESP_RST_UNKNOWN'}`,
        data: {
          reason,
          reset_reason: ESP_RESET_REASONS[reason] ?? 'ESP_RST_UNKNOWN',
          app_version: node.fwVersion,
          chip: node.chip,
        },
      },
    ],
  };
}

function projectInfo(node: DiagnosticsNode): NonNullable<DiagnosticsMessage['info']> {
  return {
    project: `fleetdeck-${node.type.toLowerCase().replace(/ /g, '-')}`,
    app_version: node.fwVersion,
    chip: node.chip,
  };
}

/** The bytes a node publishes: JSON text, or one ESP Insights data frame. */
export function encodeDiagnostics(node: DiagnosticsNode, message: DiagnosticsMessage): Buffer {
  if (!node.binary) return Buffer.from(JSON.stringify(DiagnosticsMessageSchema.parse(message)));
  const data: Record<string, unknown> = {};
  const us = (s: number) => s * 1_000_000;
  const reboot = message.logs?.find((log) => log.type === 'reboot');
  if (reboot?.type === 'reboot')
    data.boot = {
      ts: us(reboot.ts),
      chip: node.chip,
      reason: reboot.data.reason,
      proj: message.info?.project,
      app_ver: message.info?.app_version,
    };
  const crash = message.logs?.find((log) => log.type === 'crash');
  if (crash?.type === 'crash') {
    const addr = (h: string | undefined) => Number.parseInt(h ?? '0', 16);
    data.crash =
      node.chip === 'esp32'
        ? {
            task: crash.data.task,
            exc_val: [addr(crash.data.pc), 28, addr(crash.data.vaddr)],
            bt: crash.data.backtrace.map((frame) => addr(frame.address)),
            bt_corrupt: crash.data.corrupted,
            a_reg: Object.values(crash.data.registers).slice(0, 16).map(addr),
          }
        : {
            task: crash.data.task,
            exc_val: [5, addr(crash.data.vaddr)],
            mepc: addr(crash.data.pc),
            ra: addr(crash.data.registers.ra),
            sp: addr(crash.data.registers.sp),
            mstatus: 0x1880,
            a_reg: Object.values(crash.data.registers).slice(0, 8).map(addr),
          };
  }
  const trace = (type: string) =>
    (message.logs ?? [])
      .filter((log) => log.type === type)
      .map((log) => ({ ts: us(log.ts), tag: log.tag, pc: 0x400d1000, ro: 0, av: log.message }));
  data.traces = { errors: trace('error'), warnings: trace('warning'), events: trace('event') };
  data.metrics = (message.metrics ?? []).flatMap((metric) => {
    const [tag = 'm', ...rest] = metric.id.split('.');
    return metric.points.map((point) => ({
      n: ['M', tag, rest.join('.')],
      v: point.val,
      t: us(point.ts),
    }));
  });
  data.params = (message.variables ?? []).flatMap((folder) =>
    (folder.children ?? []).flatMap((param) => {
      const [tag = 'p', ...rest] = (param.id ?? '').split('.');
      return (param.values?.data ?? []).map((value) => ({
        n: ['P', tag, rest.join('.')],
        v: value.val,
        t: us(value.ts),
      }));
    }),
  );
  const body = encode({ diag: { ver: '2.0', ts: us(Math.floor(Date.now() / 1000)), data } });
  const header = Buffer.alloc(3);
  header[0] = INSIGHTS_FRAME_KIND.data;
  header.writeUInt16LE(body.length, 1);
  return Buffer.concat([header, Buffer.from(body)]);
}

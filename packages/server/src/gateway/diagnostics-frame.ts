import {
  DiagnosticsMessageSchema,
  ESP_RESET_REASONS,
  INSIGHTS_FRAME_KIND,
  type BacktraceFrame,
  type DiagnosticsLogInput,
  type DiagnosticsMessage,
  type DiagnosticsMetricInput,
  type ParamTreeNode,
  type ParamValueScalar,
} from '@fleetdeck/contract';
import { decode } from 'cborg';

/**
 * Decodes one `diagnostics/from-node` payload (rainmaker-contract B.8) into the contract's JSON
 * form. A payload starting with `{` is the JSON form; anything else must be one ESP Insights
 * frame: kind byte (0x02 data, 0x03 metadata, 0x12 configuration), a little-endian uint16 CBOR
 * length equal to the rest of the payload, then CBOR (indefinite lengths allowed). Raw firmware
 * records carry addresses, not symbols, so their entries are marked `elf_missing`.
 */
export type DiagnosticsDecodeResult =
  | {
      ok: true;
      kind: 'json' | 'data' | 'metadata';
      message: DiagnosticsMessage;
      /** Indexes into `message.logs` of entries that carry raw addresses only. */
      elfMissing: ReadonlySet<number>;
    }
  | { ok: true; kind: 'config' }
  | { ok: false; reason: string };

const HEADER_BYTES = 3;
/** Timestamps outside 2001…2286 mean the node has no valid time yet; such records are dropped. */
const MIN_SECONDS = 1_000_000_000;
const MAX_SECONDS = 9_999_999_999;

/** Xtensa EXCCAUSE names for the causes a panic usually shows. */
const XTENSA_CAUSES: Record<number, string> = {
  0: 'IllegalInstruction',
  2: 'InstructionFetchError',
  3: 'LoadStoreError',
  6: 'IntegerDivideByZero',
  9: 'LoadStoreAlignment',
  20: 'InstFetchProhibited',
  28: 'LoadProhibited',
  29: 'StoreProhibited',
};
/** RISC-V mcause names. */
const RISCV_CAUSES: Record<number, string> = {
  0: 'Instruction address misaligned',
  1: 'Instruction access fault',
  2: 'Illegal instruction',
  3: 'Breakpoint',
  4: 'Load address misaligned',
  5: 'Load access fault',
  6: 'Store address misaligned',
  7: 'Store access fault',
};

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  !(value instanceof Uint8Array);
const num = (value: unknown): number | undefined =>
  typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : undefined;
const str = (value: unknown, max = 64): string | undefined =>
  typeof value === 'string' ? value.slice(0, max) : undefined;
const hex = (value: unknown): string | undefined => {
  const n = num(value);
  return n === undefined ? undefined : `0x${(n >>> 0).toString(16).padStart(8, '0')}`;
};
/** µs (or s) epoch → 10-digit seconds, or undefined when the node had no valid time. */
const seconds = (value: unknown): number | undefined => {
  const n = num(value);
  if (n === undefined) return undefined;
  const s = Math.floor(n > 1e12 ? n / 1e6 : n);
  return s >= MIN_SECONDS && s <= MAX_SECONDS ? s : undefined;
};

/** Renders a variable value; byte strings become IPv4, MAC or hex text. */
function scalar(value: unknown): ParamValueScalar | undefined {
  if (typeof value === 'string') return value.slice(0, 256);
  if (typeof value === 'boolean') return value;
  const n = num(value);
  if (n !== undefined) return n;
  if (value instanceof Uint8Array) {
    const bytes = [...value];
    if (bytes.length === 4) return bytes.join('.');
    if (bytes.length === 6) return bytes.map((b) => b.toString(16).padStart(2, '0')).join(':');
    return bytes
      .map((b) => b.toString(16).padStart(2, '0'))
      .join('')
      .slice(0, 256);
  }
  return undefined;
}

/** Splits a record name `[kind, tag, key]` into `tag.key`. */
function recordId(name: unknown): { tag: string; key: string; id: string } | undefined {
  if (!Array.isArray(name) || name.length < 3) return undefined;
  const tag = str(name[1], 30);
  const key = str(name[2], 30);
  if (!tag || !key) return undefined;
  const id = `${tag}.${key}`.replace(/[^A-Za-z0-9_.:-]/g, '_');
  return { tag, key, id };
}

function traceLogs(
  traces: unknown,
  fallbackTs: number | undefined,
  logs: DiagnosticsLogInput[],
  elfMissing: Set<number>,
): void {
  if (!isObj(traces)) return;
  const kinds = [
    ['errors', 'error'],
    ['warnings', 'warning'],
    ['events', 'event'],
  ] as const;
  for (const [field, type] of kinds) {
    const list = traces[field];
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      if (!isObj(raw)) continue;
      const ts = seconds(raw.ts) ?? fallbackTs;
      if (ts === undefined) continue;
      const tag = str(raw.tag) ?? '';
      const formatted = typeof raw.av === 'string';
      const args = Array.isArray(raw.av) ? raw.av.map((arg) => scalar(arg) ?? null) : [];
      const message = formatted
        ? String(raw.av).slice(0, 1024)
        : `ro=${hex(raw.ro) ?? '?'} pc=${hex(raw.pc) ?? '?'} args=${JSON.stringify(args)}`.slice(
            0,
            1024,
          );
      if (!formatted) elfMissing.add(logs.length);
      logs.push({
        ts,
        type,
        tag,
        message,
        task: str(raw.task, 32),
        data: { pc: hex(raw.pc), ro: hex(raw.ro), args },
      });
    }
  }
}

function crashLog(
  crash: Obj,
  ts: number,
  prevVersion: string | undefined,
): DiagnosticsLogInput | undefined {
  const exc = Array.isArray(crash.exc_val) ? crash.exc_val : [];
  const registers: Record<string, string> = {};
  const aReg = Array.isArray(crash.a_reg) ? crash.a_reg : [];
  aReg.slice(0, 16).forEach((value, index) => {
    const text = hex(value);
    if (text) registers[`a${index}`] = text;
  });
  const riscv = aReg.length <= 8 && ('mstatus' in crash || 'mtvec' in crash || 'ra' in crash);
  let pc: string | undefined;
  let cause: string;
  let vaddr: string | undefined;
  if (riscv) {
    for (const name of ['ra', 'sp', 'mstatus', 'mtvec']) {
      const text = hex(crash[name]);
      if (text) registers[name] = text;
    }
    const mcause = num(exc[0]) ?? -1;
    cause = `${RISCV_CAUSES[mcause] ?? 'Exception'} (${mcause})`;
    vaddr = hex(exc[1]);
    pc = hex(crash.mepc) ?? hex(crash.ra);
  } else {
    pc = hex(exc[0]);
    const code = num(exc[1]) ?? -1;
    cause = `${XTENSA_CAUSES[code] ?? 'Exception'} (${code})`;
    vaddr = hex(exc[2]);
  }
  const addresses = Array.isArray(crash.bt) ? crash.bt : [];
  const backtrace: BacktraceFrame[] = addresses
    .slice(0, 64)
    .flatMap((address) => (hex(address) ? [{ address: hex(address) ?? '' }] : []));
  return {
    ts,
    type: 'crash',
    tag: 'panic',
    message: `Guru Meditation: ${cause}`,
    task: str(crash.task, 32),
    data: {
      prev_app_version: prevVersion,
      pc: pc ?? '0x00000000',
      registers,
      cause,
      vaddr,
      task: str(crash.task, 32),
      backtrace,
      corrupted: crash.bt_corrupt === true,
    },
  };
}

function dataMessage(diag: Obj): { message: DiagnosticsMessage; elfMissing: Set<number> } {
  const data = isObj(diag.data) ? diag.data : {};
  const diagTs = seconds(diag.ts);
  const sha256 = str(diag.sha256);
  const logs: DiagnosticsLogInput[] = [];
  const elfMissing = new Set<number>();
  const message: DiagnosticsMessage = {};
  const boot = isObj(data.boot) ? data.boot : undefined;
  const bootTs = boot ? (seconds(boot.ts) ?? diagTs) : undefined;
  if (boot) {
    message.info = {
      project: str(boot.proj),
      app_version: str(boot.app_ver),
      chip: str(boot.chip, 32),
      sha256,
    };
    const reason = num(boot.reason) ?? 0;
    if (bootTs !== undefined)
      logs.push({
        ts: bootTs,
        type: 'reboot',
        tag: 'boot',
        message: `Reboot: ${ESP_RESET_REASONS[reason] ?? 'ESP_RST_UNKNOWN'}`,
        data: {
          reason: Math.max(0, Math.min(255, Math.trunc(reason))),
          reset_reason: ESP_RESET_REASONS[reason] ?? 'ESP_RST_UNKNOWN',
          app_version: str(boot.app_ver),
          chip: str(boot.chip, 32),
        },
      });
  } else if (sha256) {
    message.info = { sha256 };
  }
  if (isObj(data.crash)) {
    const ts = bootTs ?? diagTs;
    const entry = ts === undefined ? undefined : crashLog(data.crash, ts, undefined);
    if (entry) {
      elfMissing.add(logs.length);
      logs.push(entry);
    }
  }
  traceLogs(data.traces, diagTs, logs, elfMissing);
  if (logs.length) message.logs = logs;

  const metrics = new Map<string, DiagnosticsMetricInput>();
  if (Array.isArray(data.metrics))
    for (const raw of data.metrics) {
      if (!isObj(raw)) continue;
      const name = recordId(raw.n);
      const val = num(raw.v);
      const ts = seconds(raw.t) ?? diagTs;
      if (!name || val === undefined || !Number.isFinite(val) || ts === undefined) continue;
      let metric = metrics.get(name.id);
      if (!metric) {
        metric = { id: name.id, points: [] };
        metrics.set(name.id, metric);
      }
      if (metric.points.length < 1000) metric.points.push({ ts, val });
    }
  if (metrics.size) message.metrics = [...metrics.values()].slice(0, 100);

  const folders = new Map<string, ParamTreeNode>();
  if (Array.isArray(data.params))
    for (const raw of data.params) {
      if (!isObj(raw)) continue;
      const name = recordId(raw.n);
      const val = scalar(raw.v);
      const ts = seconds(raw.t) ?? diagTs;
      if (!name || val === undefined || ts === undefined) continue;
      let folder = folders.get(name.tag);
      if (!folder) {
        folder = { label: name.tag, type: 'folder', children: [] };
        folders.set(name.tag, folder);
      }
      const children = folder.children ?? [];
      let param = children.find((child) => child.id === name.id);
      if (!param) {
        param = { label: name.key, type: 'param', id: name.id, values: { data: [] } };
        if (children.length < 100) children.push(param);
      }
      param.values?.data.push({ val, ts });
    }
  if (folders.size) message.variables = [...folders.values()].slice(0, 100);
  return { message, elfMissing };
}

/** The metadata message: labels and units of metrics, the variables tree without values. */
function metadataMessage(meta: Obj): DiagnosticsMessage {
  const data = isObj(meta.data) ? meta.data : {};
  const message: DiagnosticsMessage = {};
  const describe = (group: unknown, each: (tag: string, key: string, desc: Obj) => void) => {
    if (!isObj(group)) return;
    for (const [tag, keys] of Object.entries(group)) {
      if (!isObj(keys)) continue;
      for (const [key, desc] of Object.entries(keys)) if (isObj(desc)) each(tag, key, desc);
    }
  };
  const metrics: DiagnosticsMetricInput[] = [];
  describe(data.M, (tag, key, desc) => {
    const id = recordId(['M', tag, key])?.id;
    if (id && metrics.length < 100)
      metrics.push({
        id,
        label: str(desc.label) ?? key,
        unit: str(desc.unit, 16),
        path: str(desc.path),
        points: [],
      });
  });
  if (metrics.length) message.metrics = metrics;
  const folders = new Map<string, ParamTreeNode>();
  describe(data.P, (tag, key, desc) => {
    const id = recordId(['P', tag, key])?.id;
    if (!id) return;
    const path = str(desc.path) ?? tag;
    let folder = folders.get(path);
    if (!folder) {
      folder = { label: path, type: 'folder', children: [] };
      folders.set(path, folder);
    }
    if ((folder.children?.length ?? 0) < 100)
      folder.children?.push({ label: str(desc.label) ?? key, type: 'param', id });
  });
  if (folders.size) message.variables = [...folders.values()].slice(0, 100);
  return message;
}

/** Decodes a payload; never throws. */
export function decodeDiagnosticsPayload(payload: Buffer): DiagnosticsDecodeResult {
  if (payload.length === 0) return { ok: false, reason: 'empty payload' };
  if (payload[0] === 0x7b) {
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      return { ok: false, reason: 'payload is not JSON' };
    }
    const parsed = DiagnosticsMessageSchema.safeParse(json);
    if (!parsed.success)
      return { ok: false, reason: parsed.error.issues[0]?.message ?? 'payload does not match' };
    return { ok: true, kind: 'json', message: parsed.data, elfMissing: new Set() };
  }
  if (payload.length < HEADER_BYTES) return { ok: false, reason: 'frame shorter than its header' };
  const kind = payload[0];
  const length = payload.readUInt16LE(1);
  if (length !== payload.length - HEADER_BYTES)
    return {
      ok: false,
      reason: `frame length ${length} differs from ${payload.length - HEADER_BYTES} bytes`,
    };
  if (
    kind !== INSIGHTS_FRAME_KIND.data &&
    kind !== INSIGHTS_FRAME_KIND.metadata &&
    kind !== INSIGHTS_FRAME_KIND.config
  )
    return { ok: false, reason: `unknown frame kind 0x${(kind ?? 0).toString(16)}` };
  let body: unknown;
  try {
    body = decode(payload.subarray(HEADER_BYTES), { allowUndefined: true });
  } catch (error) {
    return {
      ok: false,
      reason: `CBOR: ${error instanceof Error ? error.message : 'undecodable'}`.slice(0, 200),
    };
  }
  if (kind === INSIGHTS_FRAME_KIND.config) return { ok: true, kind: 'config' };
  if (!isObj(body)) return { ok: false, reason: 'CBOR body is not a map' };
  let decoded: { message: DiagnosticsMessage; elfMissing: Set<number> };
  if (kind === INSIGHTS_FRAME_KIND.data) {
    if (!isObj(body.diag)) return { ok: false, reason: 'data frame without diag' };
    decoded = dataMessage(body.diag);
  } else {
    if (!isObj(body.diagmeta)) return { ok: false, reason: 'metadata frame without diagmeta' };
    decoded = { message: metadataMessage(body.diagmeta), elfMissing: new Set() };
  }
  const parsed = DiagnosticsMessageSchema.safeParse(decoded.message);
  if (!parsed.success)
    return { ok: false, reason: parsed.error.issues[0]?.message ?? 'frame does not match' };
  return {
    ok: true,
    kind: kind === INSIGHTS_FRAME_KIND.data ? 'data' : 'metadata',
    message: parsed.data,
    elfMissing: decoded.elfMissing,
  };
}

/** Encodes an ESP Insights frame header for a CBOR body (tests and the simulator's mirror). */
export function frameHeader(kind: number, bodyLength: number): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header[0] = kind;
  header.writeUInt16LE(bodyLength, 1);
  return header;
}

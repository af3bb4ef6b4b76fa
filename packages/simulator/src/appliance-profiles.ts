import { DEFAULT_FAULT_CATALOGUES, type NodeType, type ParamsPayload } from '@fleetdeck/contract';
import type { Rng } from './prng.js';

/**
 * What each kind of appliance looks like on the wire: its device and params (B.4.1), plausible
 * starting values, and how the values drift over time. Fault codes are ordinary int params
 * (`ACFault`, `RefFault`, `WasherFault`; 0 = no fault), as the fault screens read them.
 */

/** A param value as the simulator produces it. */
export type ParamValue = boolean | number | string;

/** One param of a device, as published in the node config. */
export interface ParamDefinition {
  name: string;
  type: string;
  data_type: 'bool' | 'int' | 'float' | 'string';
  properties: readonly ('read' | 'write' | 'time_series')[];
  bounds?: { min: number; max: number; step?: number };
  valid_strs?: readonly string[];
  ui_type?: string;
}

/** A device (or service) of the node config. */
export interface DeviceDefinition {
  name: string;
  type: string;
  primary?: string;
  params: readonly ParamDefinition[];
}

/** One device's current values: param name → value. */
export type DeviceValues = Record<string, ParamValue>;
/** A node's params document: device name → param name → value. */
export type ParamsDocument = Record<string, DeviceValues>;

/** Everything the simulator knows about one appliance type. */
export interface ApplianceProfile {
  type: NodeType;
  /** Short label for names, e.g. `AC`. */
  short: string;
  projectName: string;
  platform: string;
  serialPrefix: string;
  rooms: readonly string[];
  models: readonly (readonly [string, number])[];
  fwVersions: readonly (readonly [string, number])[];
  device: DeviceDefinition;
  faultParam: string;
  faultCodes: readonly number[];
  /** Plausible values of a freshly connected appliance. */
  initial(rng: Rng): DeviceValues;
  /** A small, realistic change: only the params whose value changed (never empty). */
  drift(rng: Rng, values: Readonly<DeviceValues>): DeviceValues;
}

/** Share of appliances that start with a fault, and per-change odds of a fault appearing/clearing. */
const FAULT_AT_START = 0.03;
const FAULT_APPEARS = 0.004;
const FAULT_CLEARS = 0.1;

const READ_WRITE = ['read', 'write'] as const;
const READ_TS = ['read', 'time_series'] as const;

/** The time service every node carries (B.4.1 `esp.service.time`). */
export const TIME_SERVICE: DeviceDefinition = {
  name: 'Time',
  type: 'esp.service.time',
  params: [{ name: 'TZ', type: 'esp.param.tz', data_type: 'string', properties: READ_WRITE }],
};
const DEFAULT_TZ = 'Asia/Kolkata';

function faultParam(name: string, max: number): ParamDefinition {
  return {
    name,
    type: 'fd.param.fault-code',
    data_type: 'int',
    properties: READ_TS,
    bounds: { min: 0, max },
  };
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** Moves `current` part of the way to `target` with a little noise, rounded to 0.1. */
function approach(rng: Rng, current: number, target: number, rate: number, noise: number): number {
  const step = clamp((target - current) * rate + rng.float(-noise, noise), -1.5, 1.5);
  return round1(current + step);
}

/** The fault code after one change: rarely appears, clears after a while. */
function nextFault(rng: Rng, current: ParamValue | undefined, codes: readonly number[]): number {
  if (current === 0 || current === undefined)
    return rng.chance(FAULT_APPEARS) ? rng.pick(codes) : 0;
  return rng.chance(FAULT_CLEARS) ? 0 : Number(current);
}

function num(values: Readonly<DeviceValues>, name: string, fallback: number): number {
  const value = values[name];
  return typeof value === 'number' ? value : fallback;
}

/** Writes `value` into `change` only when it differs from the current value. */
function set(
  change: DeviceValues,
  values: Readonly<DeviceValues>,
  name: string,
  value: ParamValue,
) {
  if (values[name] !== value) change[name] = value;
}

/** A numeric reading that must visibly move: nudged by 0.1 when the model says "no change". */
function moved(rng: Rng, current: number, next: number, min: number, max: number): number {
  let value = next !== current ? next : round1(current + (rng.chance(0.5) ? 0.1 : -0.1));
  value = clamp(value, min, max);
  if (value === current) value = round1(current + (current >= max ? -0.1 : 0.1));
  return value;
}

const AC_MODES = ['Cool', 'Heat', 'Dry', 'Fan', 'Auto'] as const;
/** Fault codes: the err_codes of the contract's default catalogues (the server's). */
const catalogueCodes = (type: NodeType) =>
  DEFAULT_FAULT_CATALOGUES[type].map((entry) => Number(entry.err_code));
const AC_FAULTS = catalogueCodes('Air Conditioner');
const AC_AMBIENT = 31;
const AC_ROOM = { min: -10, max: 55 };

const airConditioner: ApplianceProfile = {
  type: 'Air Conditioner',
  short: 'AC',
  projectName: 'fleetdeck-air-conditioner',
  platform: 'esp32s3',
  serialPrefix: 'FDAC',
  rooms: ['Living Room', 'Bedroom', 'Master Bedroom', 'Study', 'Guest Room', 'Office'],
  models: [
    ['FD-AC-1200', 35],
    ['FD-AC-1800', 40],
    ['FD-AC-2400', 15],
    ['FD-ACI-1800', 10],
  ],
  fwVersions: [
    ['1.4.2', 55],
    ['1.4.1', 25],
    ['1.3.9', 15],
    ['1.5.0', 5],
  ],
  device: {
    name: 'Air Conditioner',
    type: 'esp.device.air-conditioner',
    primary: 'Power',
    params: [
      {
        name: 'Power',
        type: 'esp.param.power',
        data_type: 'bool',
        properties: READ_WRITE,
        ui_type: 'esp.ui.toggle',
      },
      {
        name: 'Mode',
        type: 'esp.param.ac-mode',
        data_type: 'string',
        properties: READ_WRITE,
        valid_strs: AC_MODES,
        ui_type: 'esp.ui.dropdown',
      },
      {
        name: 'Setpoint',
        type: 'esp.param.setpoint-temperature',
        data_type: 'int',
        properties: READ_WRITE,
        bounds: { min: 16, max: 30, step: 1 },
        ui_type: 'esp.ui.slider',
      },
      {
        name: 'Fan Speed',
        type: 'esp.param.speed',
        data_type: 'int',
        properties: READ_WRITE,
        bounds: { min: 1, max: 5, step: 1 },
        ui_type: 'esp.ui.slider',
      },
      {
        name: 'Room Temperature',
        type: 'esp.param.temperature',
        data_type: 'float',
        properties: READ_TS,
        bounds: AC_ROOM,
      },
      faultParam('ACFault', 99),
    ],
  },
  faultParam: 'ACFault',
  faultCodes: AC_FAULTS,
  initial(rng) {
    const power = rng.chance(0.45);
    const setpoint = rng.int(20, 26);
    return {
      Power: power,
      Mode: rng.weighted([
        ['Cool', 70],
        ['Auto', 12],
        ['Dry', 8],
        ['Fan', 6],
        ['Heat', 4],
      ]),
      Setpoint: setpoint,
      'Fan Speed': rng.int(1, 5),
      'Room Temperature': round1(power ? setpoint + rng.float(-0.5, 2) : rng.float(26, 34)),
      ACFault: rng.chance(FAULT_AT_START) ? rng.pick(AC_FAULTS) : 0,
    };
  },
  drift(rng, values) {
    const change: DeviceValues = {};
    const next = { ...values };
    const roll = rng.next();
    if (roll < 0.03) next.Power = !next.Power;
    else if (next.Power === true && roll < 0.06)
      next.Setpoint = clamp(num(next, 'Setpoint', 24) + (rng.chance(0.5) ? 1 : -1), 16, 30);
    else if (next.Power === true && roll < 0.08)
      next.Mode = rng.pick(AC_MODES.filter((mode) => mode !== next.Mode));
    else if (next.Power === true && roll < 0.1)
      next['Fan Speed'] = clamp(num(next, 'Fan Speed', 3) + (rng.chance(0.5) ? 1 : -1), 1, 5);
    for (const name of ['Power', 'Setpoint', 'Mode', 'Fan Speed'] as const) {
      const value = next[name];
      if (value !== undefined) set(change, values, name, value);
    }

    const room = num(values, 'Room Temperature', AC_AMBIENT);
    const setpoint = num(next, 'Setpoint', 24);
    let target = AC_AMBIENT;
    if (next.Power === true) {
      if (next.Mode === 'Heat') target = Math.max(setpoint, room - 0.5);
      else if (next.Mode === 'Fan') target = AC_AMBIENT - 1;
      else target = Math.min(setpoint, AC_AMBIENT);
    }
    const nextRoom = approach(rng, room, target, 0.25, 0.3);
    change['Room Temperature'] = moved(rng, room, nextRoom, AC_ROOM.min, AC_ROOM.max);
    set(change, values, 'ACFault', nextFault(rng, values.ACFault, AC_FAULTS));
    return change;
  },
};

const FRIDGE = { min: -5, max: 20 };
const FREEZER = { min: -30, max: 5 };
const REF_FAULTS = catalogueCodes('Refrigerator');

const refrigerator: ApplianceProfile = {
  type: 'Refrigerator',
  short: 'Fridge',
  projectName: 'fleetdeck-refrigerator',
  platform: 'esp32c3',
  serialPrefix: 'FDRF',
  rooms: ['Kitchen', 'Pantry', 'Utility Room', 'Garage'],
  models: [
    ['FD-RF-260', 30],
    ['FD-RF-340', 40],
    ['FD-RF-560', 20],
    ['FD-RFS-680', 10],
  ],
  fwVersions: [
    ['2.1.0', 50],
    ['2.0.7', 35],
    ['2.0.5', 15],
  ],
  device: {
    name: 'Refrigerator',
    type: 'esp.device.refrigerator',
    primary: 'Fridge Setpoint',
    params: [
      {
        name: 'Door',
        type: 'fd.param.door',
        data_type: 'string',
        properties: READ_TS,
        valid_strs: ['Closed', 'Open'],
      },
      {
        name: 'Fridge Setpoint',
        type: 'esp.param.setpoint-temperature',
        data_type: 'int',
        properties: READ_WRITE,
        bounds: { min: 1, max: 8, step: 1 },
        ui_type: 'esp.ui.slider',
      },
      {
        name: 'Fridge Temperature',
        type: 'esp.param.temperature',
        data_type: 'float',
        properties: READ_TS,
        bounds: FRIDGE,
      },
      {
        name: 'Freezer Setpoint',
        type: 'esp.param.setpoint-temperature',
        data_type: 'int',
        properties: READ_WRITE,
        bounds: { min: -24, max: -14, step: 1 },
        ui_type: 'esp.ui.slider',
      },
      {
        name: 'Freezer Temperature',
        type: 'esp.param.temperature',
        data_type: 'float',
        properties: READ_TS,
        bounds: FREEZER,
      },
      faultParam('RefFault', 99),
    ],
  },
  faultParam: 'RefFault',
  faultCodes: REF_FAULTS,
  initial(rng) {
    const fridge = rng.int(3, 5);
    const freezer = rng.int(-20, -16);
    return {
      Door: 'Closed',
      'Fridge Setpoint': fridge,
      'Fridge Temperature': round1(fridge + rng.float(-0.5, 0.8)),
      'Freezer Setpoint': freezer,
      'Freezer Temperature': round1(freezer + rng.float(-0.5, 1)),
      RefFault: rng.chance(FAULT_AT_START) ? rng.pick(REF_FAULTS) : 0,
    };
  },
  drift(rng, values) {
    const change: DeviceValues = {};
    const open = values.Door === 'Open' ? !rng.chance(0.7) : rng.chance(0.05);
    set(change, values, 'Door', open ? 'Open' : 'Closed');
    let fridgeSet = num(values, 'Fridge Setpoint', 4);
    let freezerSet = num(values, 'Freezer Setpoint', -18);
    if (rng.chance(0.01)) fridgeSet = clamp(fridgeSet + (rng.chance(0.5) ? 1 : -1), 1, 8);
    if (rng.chance(0.01)) freezerSet = clamp(freezerSet + (rng.chance(0.5) ? 1 : -1), -24, -14);
    set(change, values, 'Fridge Setpoint', fridgeSet);
    set(change, values, 'Freezer Setpoint', freezerSet);

    const fridge = num(values, 'Fridge Temperature', fridgeSet);
    const nextFridge = approach(rng, fridge, fridgeSet + (open ? 4 : 0), 0.3, 0.2);
    change['Fridge Temperature'] = moved(rng, fridge, nextFridge, FRIDGE.min, FRIDGE.max);
    const freezer = num(values, 'Freezer Temperature', freezerSet);
    const nextFreezer = clamp(
      approach(rng, freezer, freezerSet + (open ? 3 : 0), 0.3, 0.2),
      FREEZER.min,
      FREEZER.max,
    );
    set(change, values, 'Freezer Temperature', nextFreezer);
    set(change, values, 'RefFault', nextFault(rng, values.RefFault, REF_FAULTS));
    return change;
  },
};

/** Washer programs and their length in minutes. */
const WASH_PROGRAMS: Readonly<Record<string, number>> = {
  Cotton: 180,
  Synthetics: 120,
  Wool: 60,
  'Quick 30': 30,
  'Eco 40-60': 210,
  'Rinse & Spin': 20,
};
const PROGRAM_NAMES = Object.keys(WASH_PROGRAMS);
const SPIN_SPEEDS = [400, 600, 800, 1000, 1200, 1400];
const WASHER_FAULTS = catalogueCodes('Washing Machine');
const programMinutes = (program: ParamValue | undefined) =>
  (typeof program === 'string' ? WASH_PROGRAMS[program] : undefined) ?? 60;

const washingMachine: ApplianceProfile = {
  type: 'Washing Machine',
  short: 'Washer',
  projectName: 'fleetdeck-washing-machine',
  platform: 'esp32',
  serialPrefix: 'FDWM',
  rooms: ['Laundry', 'Utility Room', 'Bathroom', 'Balcony'],
  models: [
    ['FD-WM-70', 30],
    ['FD-WM-80', 35],
    ['FD-WM-90', 25],
    ['FD-WMF-105', 10],
  ],
  fwVersions: [
    ['3.2.1', 45],
    ['3.2.0', 35],
    ['3.1.4', 20],
  ],
  device: {
    name: 'Washing Machine',
    type: 'esp.device.washer',
    primary: 'Power',
    params: [
      {
        name: 'Power',
        type: 'esp.param.power',
        data_type: 'bool',
        properties: READ_WRITE,
        ui_type: 'esp.ui.toggle',
      },
      {
        name: 'Program',
        type: 'fd.param.wash-program',
        data_type: 'string',
        properties: READ_WRITE,
        valid_strs: PROGRAM_NAMES,
        ui_type: 'esp.ui.dropdown',
      },
      {
        name: 'Spin Speed',
        type: 'fd.param.spin-speed',
        data_type: 'int',
        properties: READ_WRITE,
        bounds: { min: 400, max: 1400, step: 200 },
        ui_type: 'esp.ui.slider',
      },
      {
        name: 'Remaining Time',
        type: 'fd.param.remaining-minutes',
        data_type: 'int',
        properties: READ_TS,
        bounds: { min: 0, max: 240 },
      },
      faultParam('WasherFault', 99),
    ],
  },
  faultParam: 'WasherFault',
  faultCodes: WASHER_FAULTS,
  initial(rng) {
    const running = rng.chance(0.25);
    const program = rng.pick(PROGRAM_NAMES);
    return {
      Power: running,
      Program: program,
      'Spin Speed': rng.pick(SPIN_SPEEDS),
      'Remaining Time': running ? rng.int(1, programMinutes(program)) : 0,
      WasherFault: rng.chance(FAULT_AT_START) ? rng.pick(WASHER_FAULTS) : 0,
    };
  },
  drift(rng, values) {
    const change: DeviceValues = {};
    const remaining = num(values, 'Remaining Time', 0);
    if (values.Power === true && remaining === 0) {
      // Switched on (e.g. from the app) with nothing running: the cycle starts.
      change['Remaining Time'] = programMinutes(values.Program);
    } else if (values.Power === true) {
      // Simulated time runs faster than the wall clock, so a cycle ends after ~10 reports.
      const left = Math.max(0, remaining - rng.int(5, 25));
      change['Remaining Time'] = left;
      if (left === 0) change.Power = false;
    } else if (remaining > 0) {
      // Switched off mid-cycle (e.g. from the app): the cycle is abandoned.
      change['Remaining Time'] = 0;
    } else {
      // Off: usually someone starts a wash; otherwise they preselect the next one.
      const roll = rng.next();
      if (roll < 0.5) {
        const program = rng.pick(PROGRAM_NAMES);
        set(change, values, 'Program', program);
        change.Power = true;
        change['Remaining Time'] = programMinutes(program);
      } else if (roll < 0.75) {
        change.Program = rng.pick(PROGRAM_NAMES.filter((p) => p !== values.Program));
      } else {
        change['Spin Speed'] = rng.pick(SPIN_SPEEDS.filter((s) => s !== values['Spin Speed']));
      }
    }
    set(change, values, 'WasherFault', nextFault(rng, values.WasherFault, WASHER_FAULTS));
    return change;
  },
};

/** The profile of every appliance type Fleetdeck knows. */
export const APPLIANCE_PROFILES: Readonly<Record<NodeType, ApplianceProfile>> = {
  'Air Conditioner': airConditioner,
  Refrigerator: refrigerator,
  'Washing Machine': washingMachine,
};

/** The devices and services of a node's config, in order. */
export function deviceDefinitions(profile: ApplianceProfile): readonly DeviceDefinition[] {
  return [profile.device, TIME_SERVICE];
}

/** A fresh node's full params document (what `params/local/init` carries). */
export function initialParams(profile: ApplianceProfile, rng: Rng): ParamsDocument {
  return { [profile.device.name]: profile.initial(rng), [TIME_SERVICE.name]: { TZ: DEFAULT_TZ } };
}

/** Whether a value fits a param's data type, bounds, step and allowed strings. */
export function isValidParamValue(
  definition: ParamDefinition,
  value: unknown,
): value is ParamValue {
  switch (definition.data_type) {
    case 'bool':
      return typeof value === 'boolean';
    case 'string':
      return (
        typeof value === 'string' &&
        value.length <= 256 &&
        (!definition.valid_strs || definition.valid_strs.includes(value))
      );
    case 'int':
    case 'float': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return false;
      if (definition.data_type === 'int' && !Number.isInteger(value)) return false;
      const bounds = definition.bounds;
      if (!bounds) return true;
      if (value < bounds.min || value > bounds.max) return false;
      return (
        definition.data_type !== 'int' || !bounds.step || (value - bounds.min) % bounds.step === 0
      );
    }
  }
}

/**
 * Applies a `params/remote` write to `document` (in place) the way firmware does: unknown devices
 * and params, read-only params and out-of-range values are ignored. Returns what was applied —
 * the node reports exactly that on `params/local`.
 */
export function applyRemoteWrite(
  profile: ApplianceProfile,
  document: ParamsDocument,
  write: ParamsPayload,
): ParamsDocument {
  const applied: ParamsDocument = {};
  for (const device of deviceDefinitions(profile)) {
    const requested = write[device.name];
    if (!requested) continue;
    for (const definition of device.params) {
      if (!Object.hasOwn(requested, definition.name)) continue;
      const value = requested[definition.name];
      if (!definition.properties.includes('write') || !isValidParamValue(definition, value))
        continue;
      const values = (document[device.name] ??= {});
      values[definition.name] = value;
      (applied[device.name] ??= {})[definition.name] = value;
    }
  }
  return applied;
}

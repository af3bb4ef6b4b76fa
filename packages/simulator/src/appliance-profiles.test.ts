import { NODE_TYPES, ParamsPayloadSchema } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import {
  APPLIANCE_PROFILES,
  applyRemoteWrite,
  deviceDefinitions,
  initialParams,
  isValidParamValue,
  type ApplianceProfile,
  type DeviceValues,
} from './appliance-profiles.js';
import { Rng } from './prng.js';

/** The params whose value is missing, of the wrong type, out of bounds or not an allowed string. */
function invalid(profile: ApplianceProfile, values: DeviceValues): string[] {
  return profile.device.params
    .filter((definition) => !isValidParamValue(definition, values[definition.name]))
    .map((definition) => `${definition.name}=${String(values[definition.name])}`);
}

function expectValid(profile: ApplianceProfile, values: DeviceValues): void {
  expect(invalid(profile, values)).toEqual([]);
}

describe.each(NODE_TYPES)('the %s profile', (type) => {
  const profile = APPLIANCE_PROFILES[type];

  it('starts every appliance with valid values and a fault param', () => {
    for (let seed = 0; seed < 300; seed++) {
      const document = initialParams(profile, new Rng(seed));
      expect(ParamsPayloadSchema.safeParse(document).success).toBe(true);
      const values = document[profile.device.name] ?? {};
      expectValid(profile, values);
      expect(values[profile.faultParam]).toBeTypeOf('number');
    }
  });

  it('drifts in small steps that stay within realistic bounds for hours', () => {
    const rng = new Rng(99);
    for (let appliance = 0; appliance < 20; appliance++) {
      const values = { ...(initialParams(profile, rng)[profile.device.name] ?? {}) };
      const problems: string[] = [];
      for (let step = 0; step < 1000; step++) {
        const change = profile.drift(rng, values);
        if (Object.keys(change).length === 0) problems.push(`step ${step}: no change`);
        for (const [name, value] of Object.entries(change)) {
          const before = values[name];
          if (before === value) problems.push(`step ${step}: ${name} reported unchanged`);
          if (
            typeof value === 'number' &&
            typeof before === 'number' &&
            name.includes('Temperature')
          )
            if (Math.abs(value - before) > 1.6) problems.push(`step ${step}: ${name} jumped`);
        }
        Object.assign(values, change);
        problems.push(...invalid(profile, values).map((bad) => `step ${step}: ${bad}`));
      }
      expect(problems).toEqual([]);
    }
  });

  it('raises faults now and then and clears them again', () => {
    const rng = new Rng(5);
    let raised = 0;
    let cleared = 0;
    const values = { ...(initialParams(profile, rng)[profile.device.name] ?? {}) };
    for (let step = 0; step < 20_000; step++) {
      const change = profile.drift(rng, values);
      const fault = change[profile.faultParam];
      if (fault === 0) cleared++;
      else if (typeof fault === 'number') {
        raised++;
        expect(profile.faultCodes).toContain(fault);
      }
      Object.assign(values, change);
    }
    expect(raised).toBeGreaterThan(10);
    expect(cleared).toBeGreaterThan(10);
    expect(raised).toBeLessThan(400);
  });

  it('applies remote writes to writable params only, within bounds', () => {
    const document = initialParams(profile, new Rng(1));
    const writable = profile.device.params.filter((param) => param.properties.includes('write'));
    const readOnly = profile.device.params.filter((param) => !param.properties.includes('write'));
    expect(writable.length).toBeGreaterThan(0);
    expect(readOnly.length).toBeGreaterThan(0);
    const write: Record<string, Record<string, unknown>> = { [profile.device.name]: {} };
    const good: Record<string, unknown> = {};
    for (const param of writable) {
      const value =
        param.data_type === 'bool'
          ? true
          : param.valid_strs
            ? param.valid_strs[param.valid_strs.length - 1]
            : (param.bounds?.max ?? 1);
      good[param.name] = value;
    }
    Object.assign(write[profile.device.name] ?? {}, good);
    for (const param of readOnly) (write[profile.device.name] ?? {})[param.name] = 0;
    write.Unknown = { Power: false };
    write.Time = { TZ: 'Europe/Paris' };
    const applied = applyRemoteWrite(profile, document, write);
    expect(applied).toEqual({ [profile.device.name]: good, Time: { TZ: 'Europe/Paris' } });
    expect(document[profile.device.name]).toMatchObject(good);
    expectValid(profile, document[profile.device.name] ?? {});
  });

  it('ignores out-of-range, off-step and wrongly typed writes', () => {
    const document = initialParams(profile, new Rng(2));
    const before = structuredClone(document);
    const write: Record<string, unknown> = {};
    for (const param of profile.device.params) {
      if (!param.properties.includes('write')) continue;
      if (param.bounds) write[param.name] = param.bounds.max + (param.bounds.step ?? 1);
      else if (param.valid_strs) write[param.name] = 'Turbo Nonsense';
      else write[param.name] = 'not a boolean';
    }
    expect(applyRemoteWrite(profile, document, { [profile.device.name]: write })).toEqual({});
    expect(document).toEqual(before);
  });

  it('declares every param it reports, and reports every param it declares', () => {
    const document = initialParams(profile, new Rng(3));
    for (const device of deviceDefinitions(profile)) {
      expect(Object.keys(document[device.name] ?? {}).sort()).toEqual(
        device.params.map((param) => param.name).sort(),
      );
    }
  });
});

describe('param validation', () => {
  it('checks int steps from the lower bound', () => {
    const definition = {
      name: 'Spin Speed',
      type: 'x',
      data_type: 'int' as const,
      properties: ['read', 'write'] as const,
      bounds: { min: 400, max: 1400, step: 200 },
    };
    expect(isValidParamValue(definition, 800)).toBe(true);
    expect(isValidParamValue(definition, 900)).toBe(false);
    expect(isValidParamValue(definition, 800.5)).toBe(false);
    expect(isValidParamValue(definition, Number.NaN)).toBe(false);
  });
});

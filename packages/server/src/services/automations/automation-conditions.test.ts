import { describe, expect, it } from 'vitest';
import { conditionHolds, fires, type AutomationCondition } from './automation-conditions.js';

const power: AutomationCondition = {
  device: 'Air Conditioner',
  param: 'Power',
  check: '==',
  value: true,
  retrigger: false,
};

describe('automation conditions', () => {
  it('compares equal values strictly and orders numbers only', () => {
    expect(conditionHolds('==', true, true)).toBe(true);
    expect(conditionHolds('==', 1, true)).toBe(false);
    expect(conditionHolds('!=', 'cool', 'heat')).toBe(true);
    expect(conditionHolds('!=', undefined, 'heat')).toBe(false);
    expect(conditionHolds('>', 31, 30)).toBe(true);
    expect(conditionHolds('>=', 30, 30)).toBe(true);
    expect(conditionHolds('<', 29.5, 30)).toBe(true);
    expect(conditionHolds('<=', 31, 30)).toBe(false);
    expect(conditionHolds('>', '31', 30)).toBe(false);
    expect(conditionHolds('>', Number.NaN, 30)).toBe(false);
  });

  it('fires when the condition becomes true, not while it stays true', () => {
    const off = { 'Air Conditioner': { Power: false } };
    const on = { 'Air Conditioner': { Power: true } };
    expect(fires(power, { before: off, after: on, reported: on })).toBe(true);
    expect(fires(power, { before: {}, after: on, reported: on })).toBe(true);
    expect(fires(power, { before: on, after: on, reported: on })).toBe(false);
    expect(fires(power, { before: on, after: off, reported: off })).toBe(false);
  });

  it('fires again on every matching report with retrigger, and never for a param not reported', () => {
    const on = { 'Air Conditioner': { Power: true, Mode: 'cool' } };
    const modeOnly = { 'Air Conditioner': { Mode: 'cool' } };
    expect(fires({ ...power, retrigger: true }, { before: on, after: on, reported: on })).toBe(
      true,
    );
    expect(
      fires({ ...power, retrigger: true }, { before: on, after: on, reported: modeOnly }),
    ).toBe(false);
  });

  it('reads only own properties of the documents', () => {
    const document = JSON.parse('{"__proto__": {"Power": true}}') as Record<
      string,
      Record<string, unknown>
    >;
    expect(
      fires({ ...power, device: '__proto__' }, { before: {}, after: document, reported: document }),
    ).toBe(true);
    // `{}.constructor.name` is 'Object' by inheritance: that is no reported param.
    const inherited = { ...power, device: 'constructor', param: 'name', value: 'Object' };
    expect(fires(inherited, { before: {}, after: {}, reported: {} })).toBe(false);
  });
});

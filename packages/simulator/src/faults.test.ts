import { DEFAULT_FAULT_CATALOGUES, NODE_TYPES } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import { APPLIANCE_PROFILES } from './appliance-profiles.js';
import { faultCodesOf, nextFaultValue, pickFaultCode } from './faults.js';
import { Rng } from './prng.js';

const HOUR = 3_600_000;

describe('simulated faults', () => {
  it('uses the codes of the server’s default catalogues', () => {
    for (const type of NODE_TYPES) {
      expect(faultCodesOf(type).map(String)).toEqual(
        DEFAULT_FAULT_CATALOGUES[type].map((entry) => entry.err_code),
      );
      expect(APPLIANCE_PROFILES[type].faultCodes).toEqual(faultCodesOf(type));
    }
  });

  it('raises faults at about the configured rate per node and hour, and clears them', () => {
    const rng = new Rng(11);
    const nodes = 20_000;
    let raised = 0;
    for (let i = 0; i < nodes; i++) {
      const value = nextFaultValue(
        rng,
        { type: 'Washing Machine', fwVersion: '3.2.1', current: 0 },
        HOUR,
        0.05,
      );
      if (value !== 0) {
        raised++;
        expect(faultCodesOf('Washing Machine')).toContain(value);
      }
    }
    // 1 - e^-0.05 ≈ 4.9 %
    expect(raised / nodes).toBeGreaterThan(0.04);
    expect(raised / nodes).toBeLessThan(0.058);
    let cleared = 0;
    for (let i = 0; i < 1000; i++) {
      const value = nextFaultValue(
        rng,
        { type: 'Washing Machine', fwVersion: '3.2.1', current: 21 },
        HOUR,
        0.05,
      );
      expect([0, 21]).toContain(value);
      if (value === 0) cleared++;
    }
    expect(cleared).toBeGreaterThan(600); // a 45-minute mean duration
    const none = nextFaultValue(
      rng,
      { type: 'Refrigerator', fwVersion: '2.1.0', current: 0 },
      HOUR,
      0,
    );
    expect(none).toBe(0);
  });

  it('makes refrigerator E5 mostly a firmware 2.1.0 fault', () => {
    const rng = new Rng(3);
    const count = (fwVersion: string) => {
      let e5 = 0;
      for (let i = 0; i < 10_000; i++)
        if (pickFaultCode(rng, 'Refrigerator', fwVersion) === 5) e5++;
      return e5;
    };
    const on210 = count('2.1.0');
    const on207 = count('2.0.7');
    expect(on210).toBeGreaterThan(on207 * 5);
    expect(on210 / 10_000).toBeGreaterThan(0.6);
  });

  it('is the same for the same seed', () => {
    const run = () => {
      const rng = new Rng(99);
      const out: number[] = [];
      let current = 0;
      for (let i = 0; i < 500; i++) {
        current = nextFaultValue(
          rng,
          { type: 'Air Conditioner', fwVersion: '1.3.9', current },
          HOUR,
          0.3,
        );
        out.push(current);
      }
      return out;
    };
    expect(run()).toEqual(run());
    expect(run().some((value) => value !== 0)).toBe(true);
  });
});

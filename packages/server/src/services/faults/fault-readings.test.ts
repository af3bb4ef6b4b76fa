import { describe, expect, it } from 'vitest';
import { faultReadingOf } from './fault-readings.js';

describe('faultReadingOf', () => {
  it('reads the fault param of the node type from the merged document', () => {
    const message = { document: { Fridge: { RefFault: 5 } }, replace: false };
    expect(
      faultReadingOf('N1', 'Refrigerator', message, { Fridge: { RefFault: 5, Temp: 4 } }, 9),
    ).toEqual({ nodeId: 'N1', param: 'RefFault', value: '5', at: 9 });
  });

  it('skips partial documents that do not mention the fault param', () => {
    const message = { document: { Fridge: { Temp: 3 } }, replace: false };
    expect(
      faultReadingOf('N1', 'Refrigerator', message, { Fridge: { Temp: 3, RefFault: 5 } }, 9),
    ).toBeUndefined();
  });

  it('ignores the fault params of other appliance types', () => {
    const message = { document: { AC: { RefFault: 5 } }, replace: false };
    expect(
      faultReadingOf('N1', 'Air Conditioner', message, { AC: { RefFault: 5 } }, 9),
    ).toBeUndefined();
  });

  it('treats a full document without the param, 0, "" and null as no fault', () => {
    const init = { document: { Fridge: { Temp: 3 } }, replace: true };
    expect(faultReadingOf('N1', 'Refrigerator', init, init.document, 1)?.value).toBe('');
    for (const value of [0, '', null, '0']) {
      const message = { document: { Fridge: { RefFault: value } }, replace: false };
      expect(faultReadingOf('N1', 'Refrigerator', message, message.document, 1)?.value).toBe('');
    }
  });

  it('returns nothing for an unknown type', () => {
    const message = { document: { X: { ACFault: 1 } }, replace: true };
    expect(faultReadingOf('N1', 'Toaster', message, message.document, 1)).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import {
  faultDevicesPath,
  faultHistoryPath,
  faultImageDetailsPath,
  faultListPath,
} from './fault-paths';

describe('fault paths', () => {
  it('builds the Faults List with and without a type', () => {
    expect(faultListPath()).toBe('/home/FaultList');
    expect(faultListPath('ref')).toBe('/home/FaultList?type=ref');
  });

  it('escapes codes and ids', () => {
    expect(faultDevicesPath('ac', 'E 5/1')).toBe('/home/FaultList/ac/E%205%2F1');
    expect(faultImageDetailsPath('a/b')).toBe('/home/fault-image-details/a%2Fb');
  });

  it('searches Fault History for a product id only when one is given', () => {
    expect(faultHistoryPath()).toBe('/home/Faulthistory');
    expect(faultHistoryPath('')).toBe('/home/Faulthistory');
    expect(faultHistoryPath('node 1')).toBe('/home/Faulthistory?search=node%201');
  });
});

import { describe, expect, it } from 'vitest';
import { locationOf, serialOf, tagValue } from './node-tags';

describe('locationOf', () => {
  it('reads the value of the location tag', () => {
    expect(locationOf(['location:Pune', 'esp.serial_num:SN123'])).toBe('Pune');
  });

  it('prefers the location tag even when it is not first', () => {
    expect(locationOf(['esp.serial_num:SN123', 'location:Delhi'])).toBe('Delhi');
  });

  it("falls back to the first tag's value when no tag is keyed location", () => {
    expect(locationOf(['city:Kolkata', 'esp.serial_num:SN9'])).toBe('Kolkata');
  });

  it('never shows the serial number as the location', () => {
    expect(locationOf(['esp.serial_num:SN123'])).toBe('');
  });

  it('is empty for a node without tags', () => {
    expect(locationOf([])).toBe('');
  });

  it('keeps colons that belong to the value', () => {
    expect(locationOf(['location:Pune:Hinjewadi Phase 2'])).toBe('Pune:Hinjewadi Phase 2');
  });

  it('keeps unicode as it is', () => {
    expect(locationOf(['location:München'])).toBe('München');
  });
});

describe('serialOf', () => {
  it('finds the serial tag whether it is the second or the third tag', () => {
    expect(serialOf(['location:Pune', 'esp.serial_num:SN123'])).toBe('SN123');
    expect(serialOf(['location:Pune', 'floor:2', 'esp.serial_num:SN456'])).toBe('SN456');
  });

  it('is empty when the node has no serial tag', () => {
    expect(serialOf(['location:Pune', 'floor:2'])).toBe('');
  });

  it('does not mistake a key that only starts like the serial key', () => {
    expect(serialOf(['esp.serial_number:X', 'esp.serial_num:Y'])).toBe('Y');
  });
});

describe('tagValue', () => {
  it('returns undefined for a missing key and the first match otherwise', () => {
    expect(tagValue(['a:1', 'b:2', 'b:3'], 'b')).toBe('2');
    expect(tagValue(['a:1'], 'c')).toBeUndefined();
  });
});

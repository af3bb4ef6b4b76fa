import { describe, expect, it } from 'vitest';
import { cityLabel, derivedKeys, locationOf, parseStoredTags } from './node-tags.js';

describe('node tags', () => {
  it('reads the location as the tags spell it and keys it in lower case', () => {
    expect(locationOf(['location:Navi Mumbai', 'esp.serial_num:sn1'])).toBe('Navi Mumbai');
    expect(locationOf(['Pune', 'esp.serial_num:sn1'])).toBe('Pune');
    expect(locationOf(['esp.serial_num:sn1'])).toBeUndefined();
    expect(derivedKeys(['location:KOLKATA', 'esp.serial_num:sn1'])).toEqual({
      city: 'kolkata',
      serial: 'SN1',
    });
  });

  it('shows a city as the spec region list spells it, else as the tag does, else the key', () => {
    expect(cityLabel('kolkata', 'KOLKATA')).toBe('Kolkata');
    expect(cityLabel('banglore', 'Banglore')).toBe('banglore');
    expect(cityLabel('navi mumbai', 'Navi Mumbai')).toBe('Navi Mumbai');
    expect(cityLabel('navi mumbai', 'Thane')).toBe('navi mumbai');
    expect(cityLabel('navi mumbai')).toBe('navi mumbai');
    expect(cityLabel(null, 'Pune')).toBe('');
  });

  it('reads stored tag lists and survives text that is not one', () => {
    expect(parseStoredTags('["location:Pune"]')).toEqual(['location:Pune']);
    expect(parseStoredTags('{"a":1}')).toEqual([]);
    expect(parseStoredTags('not json')).toEqual([]);
    expect(parseStoredTags(null)).toEqual([]);
  });
});

import { FAULT_PARAM_BY_TYPE, NODE_TYPES } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import { FAULT_TYPES, FAULT_TYPE_KEYS, faultTypeFromParam, faultTypeOfNode } from './fault-types';

describe('FAULT_TYPES', () => {
  it('covers every node type with its catalogue and fault parameter', () => {
    expect(FAULT_TYPE_KEYS.map((key) => FAULT_TYPES[key].nodeType)).toEqual([...NODE_TYPES]);
    expect(FAULT_TYPE_KEYS.map((key) => FAULT_TYPES[key].catalogue)).toEqual([
      'ac_faults',
      'refrigerator_faults',
      'washing_machine_faults',
    ]);
    for (const key of FAULT_TYPE_KEYS) {
      expect(FAULT_TYPES[key].dimension).toBe(FAULT_PARAM_BY_TYPE[FAULT_TYPES[key].nodeType]);
    }
  });

  it('labels the selects as the spec does', () => {
    expect(FAULT_TYPE_KEYS.map((key) => FAULT_TYPES[key].listLabel)).toEqual([
      'AC Faults',
      'Ref Faults',
      'Washer Faults',
    ]);
    expect(FAULT_TYPE_KEYS.map((key) => FAULT_TYPES[key].shortLabel)).toEqual([
      'AC',
      'Ref',
      'Washer',
    ]);
  });
});

describe('faultTypeFromParam', () => {
  it('reads the short keys without regard to case or spaces', () => {
    expect(faultTypeFromParam('ac')).toBe('ac');
    expect(faultTypeFromParam(' REF ')).toBe('ref');
    expect(faultTypeFromParam('Washer')).toBe('washer');
  });

  it('reads node types, catalogue names and fault parameters too', () => {
    expect(faultTypeFromParam('Refrigerator')).toBe('ref');
    expect(faultTypeFromParam('washing_machine_faults')).toBe('washer');
    expect(faultTypeFromParam('ACFault')).toBe('ac');
  });

  it('gives nothing for anything else', () => {
    expect(faultTypeFromParam(null)).toBeUndefined();
    expect(faultTypeFromParam(undefined)).toBeUndefined();
    expect(faultTypeFromParam('')).toBeUndefined();
    expect(faultTypeFromParam('toaster')).toBeUndefined();
  });
});

describe('faultTypeOfNode', () => {
  it('maps a node type to its fault type', () => {
    expect(faultTypeOfNode('Air Conditioner')).toBe('ac');
    expect(faultTypeOfNode('Washing Machine')).toBe('washer');
    expect(faultTypeOfNode('Kettle')).toBeUndefined();
    expect(faultTypeOfNode(undefined)).toBeUndefined();
  });
});

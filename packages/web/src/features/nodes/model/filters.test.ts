import { describe, expect, it } from 'vitest';
import {
  GRAPH_TYPE_OPTIONS,
  emptyFleetMessage,
  TYPE_OPTIONS_WITH_ALL,
  manageDeviceStatusFromParam,
  statusFromParam,
  typeFromParam,
} from './filters';

describe('statusFromParam', () => {
  it('reads true as online and false as offline', () => {
    expect(statusFromParam('true')).toBe('online');
    expect(statusFromParam('false')).toBe('offline');
    expect(statusFromParam('TRUE')).toBe('online');
  });

  it('lists every status without the parameter or with anything else', () => {
    expect(statusFromParam(null)).toBeUndefined();
    expect(statusFromParam('')).toBeUndefined();
    expect(statusFromParam('yes')).toBeUndefined();
  });
});

describe('manageDeviceStatusFromParam', () => {
  it('is online only for true and offline otherwise', () => {
    expect(manageDeviceStatusFromParam('true')).toBe('online');
    expect(manageDeviceStatusFromParam('false')).toBe('offline');
    expect(manageDeviceStatusFromParam(null)).toBe('offline');
  });
});

describe('typeFromParam', () => {
  it('accepts the node types in any case', () => {
    expect(typeFromParam('Refrigerator')).toBe('Refrigerator');
    expect(typeFromParam('air conditioner')).toBe('Air Conditioner');
  });

  it('reads the Graphs value Washer as Washing Machine', () => {
    expect(typeFromParam('Washer')).toBe('Washing Machine');
  });

  it('ignores unknown types', () => {
    expect(typeFromParam('Toaster')).toBeUndefined();
    expect(typeFromParam(null)).toBeUndefined();
  });
});

describe('type options', () => {
  it('offers All Devices and the three types on the Devices list', () => {
    expect(TYPE_OPTIONS_WITH_ALL.map((option) => option.label)).toEqual([
      'All Devices',
      'Air Conditioner',
      'Refrigerator',
      'Washing Machine',
    ]);
  });

  it('shows the Graphs washer option as Washing Machine', () => {
    expect(GRAPH_TYPE_OPTIONS.map((option) => option.label)).toEqual([
      'Air Conditioner',
      'Refrigerator',
      'Washing Machine',
    ]);
  });
});

describe('emptyFleetMessage', () => {
  it('invites claiming only when the whole fleet is empty', () => {
    expect(emptyFleetMessage({ node_status: undefined, type: undefined, search: undefined })).toBe(
      'No nodes found. Please start by claiming.',
    );
  });

  it("says 'Nodes not found.' when a filter or a search found nothing", () => {
    expect(emptyFleetMessage({ search: 'fd-9' })).toBe('Nodes not found.');
    expect(emptyFleetMessage({ node_status: 'online' })).toBe('Nodes not found.');
    expect(emptyFleetMessage({ type: 'Refrigerator' })).toBe('Nodes not found.');
  });
});

import type { ParamSeries, ParamTreeNode } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import { formatParamValue, variableRows } from './param-tree';

const tree: ParamTreeNode[] = [
  {
    label: 'Wi-Fi',
    type: 'folder',
    children: [
      { label: 'SSID', type: 'param', id: 'wifi.ssid', storageType: 'ParamValue' },
      {
        label: 'Station',
        type: 'folder',
        children: [{ label: 'Channel', type: 'param', id: 'wifi.channel' }],
      },
    ],
  },
  { label: 'IPv4', type: 'param', id: 'ip.ipv4' },
];

const series = (id: string, data: ParamSeries['values']['data'], label = id): ParamSeries => ({
  id,
  label,
  storageType: 'ParamValue',
  values: { data },
});

describe('variableRows', () => {
  it('walks folders and params in order with their depth and latest value', () => {
    const rows = variableRows(tree, [
      series('wifi.ssid', [
        { val: 'home-5g', ts: 1_700_000_200 },
        { val: 'home', ts: 1_700_000_100 },
      ]),
      series('wifi.channel', [{ val: 6, ts: 1_700_000_050 }]),
    ]);
    expect(rows.map((r) => [r.depth, r.label, r.value, r.ts])).toEqual([
      [0, 'Wi-Fi', undefined, undefined],
      [1, 'SSID', 'home-5g', 1_700_000_200],
      [1, 'Station', undefined, undefined],
      [2, 'Channel', '6', 1_700_000_050],
      [0, 'IPv4', undefined, undefined],
    ]);
  });

  it('takes the newest point even when a sender lists it last', () => {
    const [, ssid] = variableRows(tree, [
      series('wifi.ssid', [
        { val: 'old', ts: 1_700_000_000 },
        { val: 'new', ts: 1_700_000_500 },
      ]),
    ]);
    expect(ssid?.value).toBe('new');
  });

  it('still shows params with values that the tree does not describe', () => {
    const rows = variableRows(
      [],
      [series('ip.gw', [{ val: '10.0.0.1', ts: 1_700_000_000 }], 'Gateway')],
    );
    expect(rows).toEqual([
      {
        key: 'ip.gw',
        depth: 0,
        label: 'Gateway',
        kind: 'param',
        id: 'ip.gw',
        value: '10.0.0.1',
        ts: 1_700_000_000,
      },
    ]);
  });
});

describe('formatParamValue', () => {
  it('writes booleans, whole and fractional numbers readably', () => {
    expect(formatParamValue(true)).toBe('true');
    expect(formatParamValue(-67)).toBe('-67');
    expect(formatParamValue(3.14159)).toBe('3.142');
  });
});

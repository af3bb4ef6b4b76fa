import { describe, expect, it } from 'vitest';
import { insightsUrl } from './insights-url';

describe('insightsUrl', () => {
  it('repeats id and leaves out empty values', () => {
    expect(
      insightsUrl('/insights/v1/node/metric/list', {
        node_id: 'n 1',
        start: 1_700_000_000,
        id: ['heap.free', 'wifi.rssi'],
        page_token: undefined,
        tz: '',
      }),
    ).toBe('/insights/v1/node/metric/list?node_id=n+1&start=1700000000&id=heap.free&id=wifi.rssi');
    expect(insightsUrl('/x', {})).toBe('/x');
  });
});

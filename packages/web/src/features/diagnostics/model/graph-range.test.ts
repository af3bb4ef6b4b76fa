import { describe, expect, it } from 'vitest';
import { GRAPH_RANGE_HOURS, graphWindow, metricListLimit, toGraphRangeHours } from './graph-range';

const NOW = 1_773_568_800;
const DAY = 86_400;

describe('the graph range', () => {
  it('offers the last 1 to 24 hours in hourly steps, default 1 hour', () => {
    expect(GRAPH_RANGE_HOURS).toHaveLength(24);
    expect(GRAPH_RANGE_HOURS[0]).toBe(1);
    expect(GRAPH_RANGE_HOURS.at(-1)).toBe(24);
    expect(toGraphRangeHours(undefined)).toBe(1);
    expect(toGraphRangeHours('6')).toBe(6);
    expect(toGraphRangeHours(0)).toBe(1);
    expect(toGraphRangeHours(25)).toBe(1);
    expect(toGraphRangeHours(1.5)).toBe(1);
  });

  it('is a window of whole hours ending now', () => {
    expect(graphWindow(6, NOW)).toEqual({ start: NOW - 6 * 3600, end: NOW });
  });
});

describe('metricListLimit', () => {
  it('is 150 below a day and 200, 1000 or 1400 from 1, 6 or 24 days', () => {
    expect(metricListLimit({ start: 0, end: 3600 })).toBe(150);
    expect(metricListLimit({ start: 0, end: DAY - 1 })).toBe(150);
    expect(metricListLimit({ start: 0, end: DAY })).toBe(200);
    expect(metricListLimit({ start: 0, end: 5 * DAY })).toBe(200);
    expect(metricListLimit({ start: 0, end: 6 * DAY })).toBe(1000);
    expect(metricListLimit({ start: 0, end: 24 * DAY })).toBe(1400);
    expect(metricListLimit(graphWindow(24, NOW))).toBe(200);
  });
});

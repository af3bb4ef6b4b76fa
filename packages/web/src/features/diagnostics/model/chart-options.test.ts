import { describe, expect, it } from 'vitest';
import {
  TIMELINE_GRID,
  axisUnits,
  formatNumber,
  metricLinesOption,
  timelineHasEntries,
  timelineOption,
  type TimelineBar,
} from './chart-options';

const bar = (timestamp: number, crash = 0): TimelineBar => ({
  timestamp,
  counts: { crash, reboot: 0, error: 0, warning: 0, event: 0 },
});

describe('the timeline', () => {
  it('stacks the five log types over a fixed plot area', () => {
    const option = timelineOption([bar(1_700_000_000, 2), bar(1_700_086_400)], {
      hourly: false,
      tzOffset: 0,
    });
    expect(option.grid).toMatchObject({ ...TIMELINE_GRID, containLabel: false });
    expect(Array.isArray(option.series) && option.series.length).toBe(5);
  });

  it('knows when there is nothing to draw', () => {
    expect(timelineHasEntries([bar(1), bar(2)])).toBe(false);
    expect(timelineHasEntries([bar(1, 1)])).toBe(true);
  });
});

describe('metric lines', () => {
  it('give each unit its own scale', () => {
    const lines = [
      { name: 'Free heap', unit: 'bytes', points: [[1, 120_000] as const] },
      { name: 'Wi-Fi RSSI', unit: 'dBm', points: [[1, -61] as const] },
      { name: 'Min free heap', unit: 'bytes', points: [] },
    ];
    expect(axisUnits(lines)).toEqual(['bytes', 'dBm']);
    const option = metricLinesOption(lines, { start: 0, end: 3600, tzOffset: 0 });
    expect(Array.isArray(option.yAxis) && option.yAxis.length).toBe(2);
    const series = option.series as { yAxisIndex: number }[];
    expect(series.map((s) => s.yAxisIndex)).toEqual([0, 1, 0]);
    expect(axisUnits([])).toEqual(['']);
  });

  it('draw a scale for every unit, a third one offset beside the first', () => {
    const lines = [
      { name: 'Compressor current', unit: 'A', points: [[1, 4.2] as const] },
      { name: 'Free heap', unit: 'bytes', points: [[1, 120_000] as const] },
      { name: 'Wi-Fi RSSI', unit: 'dBm', points: [[1, -80] as const] },
    ];
    const option = metricLinesOption(lines, { start: 0, end: 3600, tzOffset: 0 });
    const axes = option.yAxis as {
      show?: boolean;
      position: string;
      offset: number;
      name: string;
      axisLabel: { color: string };
    }[];
    expect(axes.map((axis) => [axis.position, axis.offset, axis.name])).toEqual([
      ['left', 0, 'A'],
      ['right', 0, 'bytes'],
      ['left', 64, 'dBm'],
    ]);
    expect(axes.every((axis) => axis.show !== false)).toBe(true);
    // Each scale has its line's colour, so a line can be matched to its scale.
    const series = option.series as { itemStyle: { color: string } }[];
    expect(axes.map((axis) => axis.axisLabel.color)).toEqual(
      series.map((line) => line.itemStyle.color),
    );
  });

  it('round values to two decimals', () => {
    expect(formatNumber(3)).toBe('3');
    expect(formatNumber(3.14159)).toBe('3.14');
  });
});

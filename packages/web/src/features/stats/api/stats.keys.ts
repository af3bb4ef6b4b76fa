import type { StatsRangeParams } from '../model/stats-range';

/** Query keys of the statistics dashboard, from one factory so a refresh never misses one. */
export const statsKeys = {
  all: ['stats'] as const,
  summary: () => [...statsKeys.all, 'summary'] as const,
  ranges: () => [...statsKeys.all, 'range'] as const,
  range: (params: StatsRangeParams) => [...statsKeys.ranges(), params] as const,
};

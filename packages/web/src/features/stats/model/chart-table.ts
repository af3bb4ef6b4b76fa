import type { ChartTableData } from '../../../components/chart-table';
import type { ChartData } from './chart-options';

const count = new Intl.NumberFormat('en-US');

/**
 * A dashboard chart's values as its table: a row per category (period or fault code) in the
 * chart's order, a column per series; `columns` renames the series (a fault chart's one series
 * is its appliance type, the column says what is counted).
 */
export function chartTableData(
  data: ChartData,
  rowHeader: string,
  columns?: readonly string[],
): ChartTableData {
  return {
    rowHeader,
    columns: data.series.map((series, index) => columns?.[index] ?? series.name),
    rows: data.categories.map((category, row) => ({
      key: `${row}:${category}`,
      label: category,
      values: data.series.map((series) => {
        const value = series.values[row];
        return value === undefined ? undefined : count.format(value);
      }),
    })),
  };
}

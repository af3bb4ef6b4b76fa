import { formatMessage } from '@fleetdeck/contract';
import { Button, Group, Stack, Table, VisuallyHidden } from '@mantine/core';
import { IconChartBar, IconTable } from '@tabler/icons-react';
import { useId, useState, type ReactNode } from 'react';
import { APP_LABELS } from '../app/labels';
import { TableScrollRegion } from './table-scroll-region';

/** A chart's values as rows: what each row is (a period, a code, a time) and a value per column. */
export interface ChartTableData {
  /** The header of the first column, which names each row. */
  rowHeader: string;
  /** One column per line or set of bars: its name (with its unit). */
  columns: readonly string[];
  /** The rows in the chart's order; a value is already formatted, undefined when missing. */
  rows: readonly { key: string; label: string; values: readonly (string | undefined)[] }[];
}

/** Taller tables scroll inside this height, so a month of days or an hour of points stays a card. */
const TABLE_MAX_HEIGHT = 320;

/**
 * A chart with its data view: a button under the chart shows the same values as a table (and
 * hides it again). The canvas says nothing to a screen reader and its values are only in
 * tooltips under the pointer; the table gives both keyboard and screen-reader users the numbers.
 */
export function ChartWithTable({
  name,
  table,
  testId,
  children,
}: {
  /** The chart's name, in the button's and the table's accessible names. */
  name: string;
  table: ChartTableData;
  testId?: string;
  /** The chart. */
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const tableId = useId();
  const tableName = formatMessage(APP_LABELS.chartTable, { chart: name });
  return (
    <Stack gap={4} data-testid={testId}>
      {children}
      <Group justify="flex-end">
        <Button
          variant="subtle"
          size="compact-xs"
          color="gray"
          c="var(--mantine-color-text)"
          leftSection={
            open ? (
              <IconChartBar size={14} aria-hidden="true" />
            ) : (
              <IconTable size={14} aria-hidden="true" />
            )
          }
          aria-expanded={open}
          aria-controls={open ? tableId : undefined}
          onClick={() => setOpen((shown) => !shown)}
          data-testid="chart-table-toggle"
        >
          {open ? APP_LABELS.hideTable : APP_LABELS.showTable}
          <VisuallyHidden> {formatMessage(APP_LABELS.ofChart, { chart: name })}</VisuallyHidden>
        </Button>
      </Group>
      {open && (
        <TableScrollRegion
          id={tableId}
          label={tableName}
          // As wide as its values (they do not wrap): wider than the card, it scrolls sideways.
          minWidth={0}
          maxHeight={TABLE_MAX_HEIGHT}
          testId="chart-table"
        >
          <Table
            striped
            stickyHeader
            withTableBorder
            verticalSpacing={4}
            fz="sm"
            aria-label={tableName}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{table.rowHeader}</Table.Th>
                {table.columns.map((column) => (
                  <Table.Th key={column} scope="col" ta="right">
                    {column}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {table.rows.map((row) => (
                <Table.Tr key={row.key}>
                  <Table.Th scope="row" fw={500} style={{ whiteSpace: 'nowrap' }}>
                    {row.label}
                  </Table.Th>
                  {row.values.map((value, index) => (
                    <Table.Td
                      key={table.columns[index] ?? index}
                      ta="right"
                      style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
                    >
                      {value ?? APP_LABELS.noValue}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScrollRegion>
      )}
    </Stack>
  );
}

import type { ReactNode } from 'react';
import classes from './stacked-table.module.css';
import { TableScrollRegion } from './table-scroll-region';

/**
 * The scroll container of a list table that turns into cards below the sm breakpoint (see
 * stacked-table.module.css): from sm on it scrolls sideways under `minWidth`, on a phone it does
 * not need to. `label` names the region the table scrolls in. Give the <Table> `className={stackedTable.table}` and its cells `data-title`,
 * `data-label` or `data-actions`.
 */
export function StackedTableContainer({
  label,
  minWidth,
  children,
}: {
  label: string;
  minWidth: number;
  children: ReactNode;
}) {
  return (
    <TableScrollRegion
      label={label}
      minWidth={minWidth}
      classNames={{ scrollContainer: classes.scroll, scrollContainerInner: classes.inner }}
    >
      {children}
    </TableScrollRegion>
  );
}

/** The classes the cards need: `table` on the <Table>, `clip` on a value cut on desktop. */
export const stackedTable = { table: classes.table, clip: classes.clip } as const;

import { Table } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './stacked-table.module.css';

/**
 * The scroll container of a list table that turns into cards below the sm breakpoint (see
 * stacked-table.module.css): from sm on it scrolls sideways under `minWidth`, on a phone it does
 * not need to. Give the <Table> `className={stackedTable.table}` and its cells `data-title`,
 * `data-label` or `data-actions`.
 */
export function StackedTableContainer({
  minWidth,
  children,
}: {
  minWidth: number;
  children: ReactNode;
}) {
  return (
    <Table.ScrollContainer
      minWidth={minWidth}
      classNames={{ scrollContainer: classes.scroll, scrollContainerInner: classes.inner }}
    >
      {children}
    </Table.ScrollContainer>
  );
}

/** The classes the cards need: `table` on the <Table>, `clip` on a value cut on desktop. */
export const stackedTable = { table: classes.table, clip: classes.clip } as const;

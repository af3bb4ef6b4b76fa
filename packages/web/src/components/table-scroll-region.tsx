import { Table, type TableScrollContainerProps } from '@mantine/core';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import classes from './table-scroll-region.module.css';

/** Whether the element's content is wider or taller than the element, kept up to date. */
function useOverflows() {
  const ref = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const measure = () =>
      setOverflows(
        element.scrollWidth > element.clientWidth + 1 ||
          element.scrollHeight > element.clientHeight + 1,
      );
    measure();
    // The box (window, sidebar) and the table inside it (rows arriving) both change the answer.
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return [ref, overflows] as const;
}

/**
 * The box of a table that scrolls when the table is wider (or taller) than the screen: a named
 * region that takes keyboard focus while it scrolls, so the arrow keys reach the cut-off columns
 * (WCAG 2.1.1; axe's scrollable-region-focusable). A table that fits adds no tab stop.
 */
export function TableScrollRegion({
  label,
  minWidth,
  maxHeight,
  classNames,
  id,
  testId,
  children,
}: {
  /** The region's accessible name: what the table lists. */
  label: string;
  minWidth: number;
  /** Taller tables scroll inside this height (px). */
  maxHeight?: number;
  classNames?: TableScrollContainerProps['classNames'];
  id?: string;
  testId?: string;
  children: ReactNode;
}) {
  const [ref, overflows] = useOverflows();
  return (
    <Table.ScrollContainer
      ref={ref}
      id={id}
      type="native"
      minWidth={minWidth}
      // On the box itself (Mantine puts it on the inner box), so the box scrolls both ways.
      style={maxHeight === undefined ? undefined : { maxHeight }}
      classNames={classNames}
      className={`mantine-focus-auto ${classes.region}`}
      role="region"
      aria-label={label}
      tabIndex={overflows ? 0 : undefined}
      data-testid={testId}
    >
      {children}
    </Table.ScrollContainer>
  );
}

/** The class of an empty table's message (on the element in the cell spanning all columns). */
export const tableScrollRegion = { emptyMessage: classes.emptyMessage } as const;

import { formatMessage, type NodeInfo } from '@fleetdeck/contract';
import { Skeleton, Table, Text } from '@mantine/core';
import { memo } from 'react';
import { Link } from 'react-router';
import { diagnosticsReportPath } from '../../../lib/paths';
import { NODE_LABELS } from '../labels';
import { locationOf, serialOf } from '../model/node-tags';
import classes from './node-table.module.css';
import { StatusDot } from './status-dot';
import { TableScrollRegion, tableScrollRegion } from '../../../components/table-scroll-region';

const COLUMNS = [
  NODE_LABELS.columnNodeId,
  NODE_LABELS.columnStatus,
  NODE_LABELS.columnLocation,
  NODE_LABELS.columnSerial,
  NODE_LABELS.columnVersion,
  NODE_LABELS.columnType,
  NODE_LABELS.columnModel,
] as const;

/**
 * Fixed widths (px) for the columns whose values are short and of known length. The table's
 * layout is fixed, so the columns have the same widths while the skeleton rows show as after the
 * first page arrives (no jump), and a page's values cannot move them either. Node Device Id and
 * Location share the rest; a value longer than its column ends in an ellipsis (its title shows it).
 */
const COLUMN_WIDTHS: Partial<Record<(typeof COLUMNS)[number], number>> = {
  [NODE_LABELS.columnStatus]: 80,
  [NODE_LABELS.columnSerial]: 176,
  [NODE_LABELS.columnVersion]: 88,
  [NODE_LABELS.columnType]: 160,
  [NODE_LABELS.columnModel]: 116,
};
/** The checkbox (16 px) and the cell's padding. */
const CHECKBOX_WIDTH = 52;

/** Wide enough for a 12-character id and the other columns; narrower screens scroll sideways. */
const TABLE_MIN_WIDTH = 940;

export interface NodeTableProps {
  /** The rows; undefined while the first page loads (skeleton rows are shown). */
  nodes: readonly NodeInfo[] | undefined;
  skeletonRows: number;
  emptyMessage: string;
  /** Whether rows have checkboxes (screens that can add nodes to a group). */
  selectable: boolean;
  selected: ReadonlySet<string>;
  onToggle: (nodeId: string, checked: boolean) => void;
  onToggleAll: (checked: boolean) => void;
  /** Device ids link to the diagnostics report (the diagnostics option or the Diag cookie). */
  diagnosticsLinks: boolean;
  /** Rows are kept from the previous page while the next one loads. */
  stale: boolean;
}

/**
 * One row as plain elements with classes, not a Mantine component per cell: rendering a page of
 * 25 rows is most of what a click on Next, a filter or a page size costs in the browser (B8).
 */
const NodeRow = memo(function NodeRow({
  node,
  selectable,
  checked,
  onToggle,
  diagnosticsLinks,
}: {
  node: NodeInfo;
  selectable: boolean;
  checked: boolean;
  onToggle: (nodeId: string, checked: boolean) => void;
  diagnosticsLinks: boolean;
}) {
  const location = locationOf(node.tags);
  return (
    <tr className={classes.row} data-node-id={node.node_id} data-checked={checked || undefined}>
      {selectable && (
        <td className={classes.cell}>
          <input
            type="checkbox"
            className={classes.check}
            checked={checked}
            onChange={(event) => onToggle(node.node_id, event.currentTarget.checked)}
            aria-label={formatMessage(NODE_LABELS.selectNode, { node: node.node_id })}
          />
        </td>
      )}
      <td className={`${classes.cell} ${classes.id}`} title={node.node_id}>
        {diagnosticsLinks ? (
          <Link className={classes.link} to={diagnosticsReportPath(node.node_id)}>
            {node.node_id}
          </Link>
        ) : (
          node.node_id
        )}
      </td>
      <td className={classes.cell}>
        <StatusDot node={node} />
      </td>
      <td className={classes.cell} title={location}>
        {location}
      </td>
      <td className={classes.cell}>{serialOf(node.tags)}</td>
      <td className={classes.cell}>{node.fw_version}</td>
      <td className={classes.cell}>{node.type}</td>
      <td className={classes.cell}>{node.model}</td>
    </tr>
  );
});

/** The header row, with select-all of the loaded page; memoised (it changes only with the selection). */
const NodeTableHead = memo(function NodeTableHead({
  selectable,
  allSelected,
  someSelected,
  empty,
  onToggleAll,
}: {
  selectable: boolean;
  allSelected: boolean;
  someSelected: boolean;
  empty: boolean;
  onToggleAll: (checked: boolean) => void;
}) {
  return (
    <Table.Thead>
      <Table.Tr>
        {selectable && (
          <Table.Th w={CHECKBOX_WIDTH}>
            <input
              type="checkbox"
              className={classes.check}
              checked={allSelected}
              ref={(box) => {
                if (box) box.indeterminate = someSelected;
              }}
              disabled={empty}
              onChange={(event) => onToggleAll(event.currentTarget.checked)}
              aria-label={NODE_LABELS.selectAll}
            />
          </Table.Th>
        )}
        {COLUMNS.map((column) => (
          <Table.Th key={column} fz="sm" w={COLUMN_WIDTHS[column]}>
            {column}
          </Table.Th>
        ))}
      </Table.Tr>
    </Table.Thead>
  );
});

/**
 * The node table (fleet-management §2 Devices list): checkbox, Node Device Id, Status dot,
 * Location, Serial no., Version, Type, Model. Plain rows, at most one page (25) of them, so the
 * DOM stays small however large the fleet is.
 */
export function NodeTable({
  nodes,
  skeletonRows,
  emptyMessage,
  selectable,
  selected,
  onToggle,
  onToggleAll,
  diagnosticsLinks,
  stale,
}: NodeTableProps) {
  const columnCount = COLUMNS.length + (selectable ? 1 : 0);
  const loaded = nodes ?? [];
  const selectedOnPage = loaded.filter((node) => selected.has(node.node_id)).length;
  const allSelected = loaded.length > 0 && selectedOnPage === loaded.length;

  return (
    <TableScrollRegion label={NODE_LABELS.devicesHeading} minWidth={TABLE_MIN_WIDTH}>
      <Table
        verticalSpacing="xs"
        horizontalSpacing="md"
        layout="fixed"
        aria-busy={nodes === undefined || stale}
        // One line per cell: every row is the same height (no row grows where a type or model
        // wraps), and a narrow screen scrolls the table sideways instead.
        style={{ opacity: stale ? 0.6 : 1, transition: 'opacity 120ms', whiteSpace: 'nowrap' }}
        data-testid="node-table"
      >
        <NodeTableHead
          selectable={selectable}
          allSelected={allSelected}
          someSelected={selectedOnPage > 0 && !allSelected}
          empty={loaded.length === 0}
          onToggleAll={onToggleAll}
        />
        <Table.Tbody>
          {nodes === undefined &&
            Array.from({ length: skeletonRows }, (_, row) => (
              <Table.Tr key={row} aria-hidden="true">
                {Array.from({ length: columnCount }, (_, cell) => (
                  <Table.Td key={cell}>
                    {/* A line of text's height, so the rows that replace these do not push the
                        pager down (a layout shift on every first load). */}
                    <div className={classes.skeletonLine}>
                      <Skeleton height={12} radius="sm" />
                    </div>
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          {nodes !== undefined && nodes.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={columnCount}>
                {/* Centred in the part of the table that is on screen: on a phone the table is
                    wider than the screen and scrolls sideways, and a message centred across all
                    of it was cut off. */}
                <Text
                  ta="center"
                  c="dimmed"
                  py="xl"
                  className={tableScrollRegion.emptyMessage}
                  data-testid="node-table-empty"
                >
                  {emptyMessage}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {loaded.map((node) => (
            <NodeRow
              key={node.node_id}
              node={node}
              selectable={selectable}
              checked={selected.has(node.node_id)}
              onToggle={onToggle}
              diagnosticsLinks={diagnosticsLinks}
            />
          ))}
        </Table.Tbody>
      </Table>
    </TableScrollRegion>
  );
}

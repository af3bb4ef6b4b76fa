import type { NodeGroup } from '@fleetdeck/contract';
import { Anchor, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { GROUP_LABELS } from '../labels';
import { groupDetailsPath, groupDisplayName } from '../model/group-form';
import { SkeletonRows } from '../../../components/skeleton-rows';
import { StackedTableContainer, stackedTable } from '../../../components/stacked-table';

/**
 * The Device Groups table: Name (links to the details), Group Id, Description; a card per group
 * on a phone. Fixed column widths: the 9-character id keeps one line, a long name is cut (its
 * title shows it) instead of pushing the other columns, and the description gets the rest.
 */
export function GroupTable({
  groups,
  skeletonRows,
  stale,
}: {
  groups: readonly NodeGroup[] | undefined;
  skeletonRows: number;
  stale: boolean;
}) {
  return (
    <StackedTableContainer label={GROUP_LABELS.heading} minWidth={600}>
      <Table
        verticalSpacing="sm"
        highlightOnHover
        layout="fixed"
        className={stackedTable.table}
        data-testid="group-table"
        style={{ opacity: stale ? 0.6 : 1, transition: 'opacity 120ms' }}
        aria-busy={groups === undefined || stale}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="40%">{GROUP_LABELS.columnName}</Table.Th>
            <Table.Th w={120} style={{ whiteSpace: 'nowrap' }}>
              {GROUP_LABELS.columnGroupId}
            </Table.Th>
            <Table.Th>{GROUP_LABELS.columnDescription}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {groups === undefined && <SkeletonRows rows={skeletonRows} columns={3} />}
          {groups?.map((group) => {
            const name = groupDisplayName(group);
            const description = group.description || GROUP_LABELS.noDescription;
            return (
              <Table.Tr key={group.group_id} data-group-id={group.group_id}>
                <Table.Td data-title>
                  <Anchor
                    component={Link}
                    to={groupDetailsPath(group.group_id)}
                    fw={500}
                    className={stackedTable.clip}
                    title={name}
                  >
                    {name}
                  </Anchor>
                </Table.Td>
                <Table.Td
                  data-label={GROUP_LABELS.columnGroupId}
                  ff="monospace"
                  fz="sm"
                  style={{ whiteSpace: 'nowrap' }}
                >
                  {group.group_id}
                </Table.Td>
                <Table.Td data-label={GROUP_LABELS.columnDescription}>
                  <Text size="sm" lineClamp={2} title={description}>
                    {description}
                  </Text>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </StackedTableContainer>
  );
}

import type { NodeGroup } from '@fleetdeck/contract';
import { Anchor, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { GROUP_LABELS } from '../labels';
import { groupDetailsPath, groupDisplayName } from '../model/group-form';
import { SkeletonRows } from '../../../components/skeleton-rows';

/** The Device Groups table: Name (links to the details), Group Id, Description. */
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
    <Table.ScrollContainer minWidth={600}>
      <Table
        verticalSpacing="sm"
        highlightOnHover
        data-testid="group-table"
        style={{ opacity: stale ? 0.6 : 1, transition: 'opacity 120ms' }}
        aria-busy={groups === undefined || stale}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{GROUP_LABELS.columnName}</Table.Th>
            <Table.Th>{GROUP_LABELS.columnGroupId}</Table.Th>
            <Table.Th>{GROUP_LABELS.columnDescription}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {groups === undefined && <SkeletonRows rows={skeletonRows} columns={3} />}
          {groups?.map((group) => (
            <Table.Tr key={group.group_id} data-group-id={group.group_id}>
              <Table.Td>
                <Anchor component={Link} to={groupDetailsPath(group.group_id)} fw={500}>
                  {groupDisplayName(group)}
                </Anchor>
              </Table.Td>
              <Table.Td ff="monospace" fz="sm">
                {group.group_id}
              </Table.Td>
              <Table.Td>
                <Text size="sm" lineClamp={2}>
                  {group.description || GROUP_LABELS.noDescription}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

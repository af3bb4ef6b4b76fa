import { MESSAGES, type AdminUser } from '@fleetdeck/contract';
import { Anchor, Badge, Box, Group, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { USER_LABELS } from '../labels';
import { roleLabel } from '../model/user-form';
import { userDetailsPath } from '../model/user-search';
import { SkeletonRows } from '../../../components/skeleton-rows';
import { StackedTableContainer, stackedTable } from '../../../components/stacked-table';

/**
 * The User Registration table: User Name (links to the details), User Id, Role; a card per user
 * on a phone. Fixed column widths: the UUID keeps one line, the role badges have room for their
 * labels, and a long e-mail is cut (its title shows it) instead of pushing the other columns.
 */
export function UserTable({
  users,
  skeletonRows,
}: {
  users: readonly AdminUser[] | undefined;
  skeletonRows: number;
}) {
  return (
    <StackedTableContainer label={USER_LABELS.heading} minWidth={760}>
      <Table
        verticalSpacing="sm"
        highlightOnHover
        layout="fixed"
        className={stackedTable.table}
        data-testid="user-table"
        aria-busy={!users}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{USER_LABELS.columnUserName}</Table.Th>
            {/* A UUID (36 characters) in the monospace font, plus the cell's padding. */}
            <Table.Th w={330}>{USER_LABELS.columnUserId}</Table.Th>
            <Table.Th w={230}>{USER_LABELS.columnRole}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users === undefined && <SkeletonRows rows={skeletonRows} columns={3} />}
          {users?.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={3}>
                <Text c="dimmed" ta="center" py="lg" data-testid="users-empty">
                  {MESSAGES.userNotFound}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {users?.map((user) => {
            const fullName = [user.first_name, user.last_name].filter(Boolean).join(' ');
            return (
              <Table.Tr key={user.user_id} data-user-name={user.user_name}>
                <Table.Td data-title>
                  <Box>
                    <Anchor
                      component={Link}
                      to={userDetailsPath(user.user_name)}
                      fw={500}
                      className={stackedTable.clip}
                      title={user.user_name}
                    >
                      {user.user_name}
                    </Anchor>
                    {fullName && (
                      <Text size="xs" c="dimmed" className={stackedTable.clip} title={fullName}>
                        {fullName}
                      </Text>
                    )}
                  </Box>
                </Table.Td>
                <Table.Td data-label={USER_LABELS.columnUserId} ff="monospace" fz="sm">
                  <span className={stackedTable.clip} title={user.user_id}>
                    {user.user_id}
                  </span>
                </Table.Td>
                <Table.Td data-label={USER_LABELS.columnRole}>
                  <Group gap={6} wrap="wrap">
                    {user.user_role.map((role) => (
                      <Badge
                        key={role}
                        variant="light"
                        color={role === 'super_admin' ? 'grape' : 'fleet'}
                        tt="none"
                        style={{ flexShrink: 0, maxWidth: 'none' }}
                      >
                        {role === 'super_admin' ? USER_LABELS.superAdminBadge : roleLabel(role)}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </StackedTableContainer>
  );
}

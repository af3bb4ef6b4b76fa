import { MESSAGES, type AdminUser } from '@fleetdeck/contract';
import { Anchor, Badge, Group, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { USER_LABELS } from '../labels';
import { roleLabel } from '../model/user-form';
import { userDetailsPath } from '../model/user-search';
import { SkeletonRows } from '../../../components/skeleton-rows';

/** The User Registration table: User Name (links to the details), User Id, Role. */
export function UserTable({
  users,
  skeletonRows,
}: {
  users: readonly AdminUser[] | undefined;
  skeletonRows: number;
}) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing="sm" highlightOnHover data-testid="user-table" aria-busy={!users}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{USER_LABELS.columnUserName}</Table.Th>
            <Table.Th>{USER_LABELS.columnUserId}</Table.Th>
            <Table.Th>{USER_LABELS.columnRole}</Table.Th>
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
          {users?.map((user) => (
            <Table.Tr key={user.user_id} data-user-name={user.user_name}>
              <Table.Td>
                <Anchor component={Link} to={userDetailsPath(user.user_name)} fw={500}>
                  {user.user_name}
                </Anchor>
                {(user.first_name || user.last_name) && (
                  <Text size="xs" c="dimmed">
                    {[user.first_name, user.last_name].filter(Boolean).join(' ')}
                  </Text>
                )}
              </Table.Td>
              <Table.Td ff="monospace" fz="sm">
                {user.user_id}
              </Table.Td>
              <Table.Td>
                <Group gap={6} wrap="wrap">
                  {user.user_role.map((role) => (
                    <Badge
                      key={role}
                      variant="light"
                      color={role === 'super_admin' ? 'grape' : 'fleet'}
                      tt="none"
                    >
                      {role === 'super_admin' ? USER_LABELS.superAdminBadge : roleLabel(role)}
                    </Badge>
                  ))}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

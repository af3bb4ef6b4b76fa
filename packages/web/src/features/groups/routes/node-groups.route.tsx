import { DEFAULT_PAGE_SIZE, MESSAGES, PAGE_SIZES } from '@fleetdeck/contract';
import { Box, Button, Divider, Group, Paper, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useSessionUser } from '../../auth/components/session-user';
import { NodeScreen } from '../../nodes/components/node-screen';
import { NodeTablePager } from '../../nodes/components/node-table-pager';
import { isGonePage } from '../../../lib/list-position';
import { useFirstPageWhenGone, useUrlCursorPaging } from '../../../lib/use-url-paging';
import { groupKeys } from '../api/groups.keys';
import { isNoGroupsError, useGroupList } from '../api/group-list.query';
import { CreateGroupModal } from '../components/create-group-modal';
import { GroupIdSearch } from '../components/group-id-search';
import { GroupTable } from '../components/group-table';
import { GROUP_LABELS } from '../labels';
import { FetchingBar } from '../../../components/fetching-bar';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { useFormDraft } from '../../auth/use-form-draft';
import { RefreshButton } from '../../../components/refresh-button';

/**
 * /home/node-groups/ (fleet-management §2): the Device Groups table with cursor paging
 * (5/10/25, default 10), a search by group id, Create Group and refresh. With no group at all
 * the server answers 404 and the screen says 'Please create a Node Group'. The page lives in the
 * query string, so Back from a group returns to it.
 */
export function NodeGroupsRoute() {
  const user = useSessionUser();
  const canWrite = user.permissions.includes('groups.write');
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const paging = useUrlCursorPaging(PAGE_SIZES.groups, DEFAULT_PAGE_SIZE);
  const { pageSize } = paging;
  const creating = params.get('create') === '1';
  const [createOpen, setCreateOpen] = useFormDraft('groups.create.open', false);

  const query = useGroupList({ start_id: paging.cursor, num_records: pageSize });
  const stale = query.isPlaceholderData;
  const nextId = stale ? undefined : query.data?.next_id;
  const empty = query.isError && isNoGroupsError(query.error);
  useFirstPageWhenGone(
    paging,
    isGonePage({ rows: query.data?.groups, error: query.error, placeholder: stale }),
  );

  const openCreate = () => setCreateOpen(true);
  const closeCreate = () => {
    setCreateOpen(false);
    if (creating)
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('create');
          return next;
        },
        { replace: true },
      );
  };

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: groupKeys.lists(), refetchType: 'none' });
    void query.refetch();
  };

  const createButton = canWrite && (
    <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={openCreate}>
      {GROUP_LABELS.createGroup}
    </Button>
  );

  return (
    <NodeScreen title={GROUP_LABELS.heading}>
      <Paper withBorder radius="lg" data-testid="group-list">
        <Stack gap={0}>
          <Box p="md">
            <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
              <Group align="flex-end" gap="sm" wrap="wrap" style={{ flex: '1 1 auto' }}>
                <GroupIdSearch />
              </Group>
              <Group gap="sm" wrap="wrap" align="flex-end">
                <RefreshButton
                  label={GROUP_LABELS.refresh}
                  onClick={refresh}
                  loading={query.isFetching && !query.isPending}
                />
                {createButton}
              </Group>
            </Group>
          </Box>
          <FetchingBar active={query.isFetching} label={GROUP_LABELS.refresh} />
          <Divider />
          {empty && (
            <Stack align="center" gap="sm" py="xl" px="md" data-testid="groups-empty">
              <Text c="dimmed">{MESSAGES.createNodeGroup}</Text>
              {createButton}
            </Stack>
          )}
          {query.isError && !empty && (
            <QueryErrorAlert
              m="md"
              error={query.error}
              retryLabel={GROUP_LABELS.tryAgain}
              onRetry={() => void query.refetch()}
            />
          )}
          {!query.isError && (
            <GroupTable groups={query.data?.groups} skeletonRows={pageSize} stale={stale} />
          )}
          <Divider />
          <Box p="md">
            <NodeTablePager
              {...paging.pagerProps(
                query.isError ? undefined : query.data?.total,
                nextId,
                query.isPending,
              )}
            />
          </Box>
        </Stack>
      </Paper>
      {canWrite && <CreateGroupModal opened={createOpen || creating} onClose={closeCreate} />}
    </NodeScreen>
  );
}

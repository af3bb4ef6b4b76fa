import {
  ALL_NODES_GROUP_ID,
  DEFAULT_NODES_OF_GROUP_PAGE_SIZE,
  MESSAGES,
  PAGE_SIZES,
} from '@fleetdeck/contract';
import {
  Anchor,
  Badge,
  Box,
  Breadcrumbs,
  Button,
  Divider,
  EmptyState,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
} from '@mantine/core';
import { IconArrowLeft, IconFolderOff, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Fragment } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { errorMessage, isApiError } from '../../../lib/api-error';
import { useDialogTarget } from '../../../lib/use-dialog-target';
import { useSessionUser } from '../../auth/components/session-user';
import { NodeScreen } from '../../nodes/components/node-screen';
import { NodeTable } from '../../nodes/components/node-table';
import { NodeTablePager } from '../../nodes/components/node-table-pager';
import { isGonePage, isIdCursor } from '../../../lib/list-position';
import { useFirstPageWhenGone, useUrlCursorPaging } from '../../../lib/use-url-paging';
import { useGroupDetails } from '../api/group-details.query';
import { groupKeys } from '../api/groups.keys';
import { DeleteGroupModal } from '../components/delete-group-modal';
import { GROUP_LABELS } from '../labels';
import {
  GROUPS_PATH,
  groupDisplayName,
  groupQueryDisplay,
  groupTypeLabel,
} from '../model/group-form';
import { DetailField } from '../../../components/detail-field';
import { FetchingBar } from '../../../components/fetching-bar';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { RefreshButton } from '../../../components/refresh-button';

const NO_SELECTION: ReadonlySet<string> = new Set();
const ignore = () => undefined;

/**
 * The group query with a line-break opportunity after each '&&', so a long query wraps between
 * its conditions ('node_type:Refrigerator&&' / 'node_model:FD-RF-260'), not inside one.
 */
function QueryText({ query }: { query: string }) {
  return query.split('&&').map((condition, index) => (
    <Fragment key={index}>
      {index > 0 && (
        <>
          &&
          <wbr />
        </>
      )}
      {condition}
    </Fragment>
  ));
}

function BackToGroups() {
  return (
    <Button
      component={Link}
      to={GROUPS_PATH}
      variant="default"
      leftSection={<IconArrowLeft size={16} aria-hidden="true" />}
    >
      {GROUP_LABELS.backToGroups}
    </Button>
  );
}

/**
 * /home/node-groups/{group_id} and /home/group-details/{group_id} (fleet-management §2): the
 * group's fields, its nodes a page at a time (5/10/15/25, default 5) and Delete. An unknown
 * group is a clear not-found state with a way back to the list. The page of nodes lives in the
 * query string, so Back to the group returns to it.
 */
export function GroupDetailsRoute() {
  const { groupId = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useSessionUser();
  const canWrite = user.permissions.includes('groups.write');
  const paging = useUrlCursorPaging(
    PAGE_SIZES.nodesOfGroup,
    DEFAULT_NODES_OF_GROUP_PAGE_SIZE,
    isIdCursor,
  );
  const { pageSize } = paging;
  const deleting = useDialogTarget<true>();

  const query = useGroupDetails({
    group_id: groupId,
    start_id: paging.cursor,
    num_records: pageSize,
  });
  const group = query.data;
  const stale = query.isPlaceholderData;
  const nextId = stale ? undefined : group?.next_id;
  const notFound = query.isError && isApiError(query.error) && query.error.status === 404;
  useFirstPageWhenGone(
    paging,
    isGonePage({ rows: group?.node_details, error: query.error, placeholder: stale }),
  );

  if (notFound) {
    return (
      <NodeScreen title={GROUP_LABELS.notFoundTitle}>
        <EmptyState py="xl" variant="light" data-testid="group-not-found">
          <EmptyState.Indicator>
            <IconFolderOff size={28} stroke={1.6} aria-hidden="true" />
          </EmptyState.Indicator>
          <EmptyState.Title order={2}>{GROUP_LABELS.notFoundTitle}</EmptyState.Title>
          <EmptyState.Description>{errorMessage(query.error)}</EmptyState.Description>
          <EmptyState.Actions>
            <BackToGroups />
          </EmptyState.Actions>
        </EmptyState>
      </NodeScreen>
    );
  }

  const name = group ? groupDisplayName(group) : groupId;
  const refresh = () => {
    void queryClient.invalidateQueries({
      queryKey: groupKeys.detailsOf(groupId),
      refetchType: 'none',
    });
    void query.refetch();
  };

  return (
    <NodeScreen title={group ? name : GROUP_LABELS.detailsHeading}>
      <Breadcrumbs>
        <Anchor component={Link} to={GROUPS_PATH} size="sm">
          {GROUP_LABELS.heading}
        </Anchor>
        <Text size="sm">{groupId}</Text>
      </Breadcrumbs>
      {query.isError && (
        <QueryErrorAlert
          error={query.error}
          retryLabel={GROUP_LABELS.tryAgain}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      )}
      {/* Nothing to show after a failure: the alert says so; skeletons would claim it loads. */}
      {!(query.isError && group === undefined) && (
        <Paper withBorder radius="lg" p="md" data-testid="group-fields">
          <Group justify="space-between" align="flex-start" gap="md">
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" miw={0} style={{ flex: 1 }}>
              <DetailField label={GROUP_LABELS.fieldName}>
                {group ? name : <Skeleton h={14} w={120} />}
              </DetailField>
              <DetailField label={GROUP_LABELS.fieldId}>
                <Text ff="monospace" fz="sm">
                  {groupId}
                </Text>
              </DetailField>
              <DetailField label={GROUP_LABELS.fieldType}>
                {group ? (
                  <Badge variant="light" data-testid="group-type">
                    {groupTypeLabel(group.is_automatic)}
                  </Badge>
                ) : (
                  <Skeleton h={14} w={80} />
                )}
              </DetailField>
              <DetailField label={GROUP_LABELS.fieldDescription}>
                {group ? group.description || GROUP_LABELS.noDescription : <Skeleton h={14} />}
              </DetailField>
              <DetailField label={GROUP_LABELS.fieldQuery}>
                {group ? (
                  <Text
                    ff="monospace"
                    fz="sm"
                    data-testid="group-query"
                    style={{ wordBreak: 'break-word' }}
                  >
                    <QueryText query={groupQueryDisplay(group)} />
                  </Text>
                ) : (
                  <Skeleton h={14} />
                )}
              </DetailField>
              <DetailField label={GROUP_LABELS.fieldNodes}>
                {group ? group.total : <Skeleton h={14} w={40} />}
              </DetailField>
            </SimpleGrid>
            {canWrite && groupId !== ALL_NODES_GROUP_ID && (
              <Button
                color="red"
                variant="light"
                leftSection={<IconTrash size={16} aria-hidden="true" />}
                onClick={() => deleting.open(true)}
                disabled={group === undefined}
              >
                {GROUP_LABELS.deleteGroup}
              </Button>
            )}
          </Group>
        </Paper>
      )}
      <Paper withBorder radius="lg" data-testid="node-list">
        <Stack gap={0}>
          <Group justify="space-between" p="md">
            <Text fw={600}>{GROUP_LABELS.nodesHeading}</Text>
            <RefreshButton
              label={GROUP_LABELS.refresh}
              onClick={refresh}
              loading={query.isFetching && !query.isPending}
            />
          </Group>
          <FetchingBar active={query.isFetching} label={GROUP_LABELS.refresh} />
          <Divider />
          <NodeTable
            nodes={query.isError ? [] : group?.node_details}
            skeletonRows={pageSize}
            emptyMessage={MESSAGES.noNodesInGroup}
            selectable={false}
            selected={NO_SELECTION}
            onToggle={ignore}
            onToggleAll={ignore}
            diagnosticsLinks={false}
            stale={stale}
          />
          <Divider />
          <Box p="md">
            <NodeTablePager
              {...paging.pagerProps(
                query.isError ? undefined : group?.total,
                nextId,
                query.isPending,
              )}
            />
          </Box>
        </Stack>
      </Paper>
      {deleting.target !== null && (
        <DeleteGroupModal
          opened
          groupId={groupId}
          groupName={name}
          onCancel={deleting.close}
          onFinished={() => {
            void Promise.resolve(navigate(GROUPS_PATH)).then(() =>
              queryClient.removeQueries({ queryKey: groupKeys.detailsOf(groupId) }),
            );
          }}
        />
      )}
    </NodeScreen>
  );
}

import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@fleetdeck/contract';
import { Box, Button, Center, Divider, Group, Loader, Modal, Paper, Stack } from '@mantine/core';
import { IconMailCog, IconUserPlus } from '@tabler/icons-react';
import { Suspense, lazy, useMemo, useState } from 'react';
import { FetchingBar } from '../../../components/fetching-bar';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { NodeScreen } from '../../nodes/components/node-screen';
import { NodeTablePager } from '../../nodes/components/node-table-pager';
import { SearchInput } from '../../nodes/components/search-input';
import { useUrlSearch } from '../../nodes/components/use-url-search';
import { PAGE_PARAMS } from '../../../lib/list-position';
import { useUrlPageNumber } from '../../../lib/use-url-paging';
import { useAllUsers } from '../api/user-list.query';
import { AddUserModal } from '../components/add-user-modal';
import { UserTable } from '../components/user-table';
import { USER_LABELS } from '../labels';
import { searchUsers } from '../model/user-search';
import { useFormDraft } from '../../auth/use-form-draft';
import { RefreshButton } from '../../../components/refresh-button';

/**
 * The invitation template's editor (fleet-management §2 Email Template Configurations), the same
 * form as Deployment Settings › Email Configurations, loaded when first opened. Deployment
 * Settings open only in customer mode (access §6), so this is where a standard deployment's
 * super admin edits the template (fleet §1).
 */
const EmailTemplateEditor = lazy(() =>
  import('../../deployment-settings/tabs/email-configurations/email-configurations-tab').then(
    (module) => ({ default: module.EmailConfigurationsTab }),
  ),
);

/**
 * /home/userregistration/ (fleet-management §2, super admins): User Name, User Id and Role with
 * a client-side search, paging 5/10/25 (default 10), 'User not found.' when nothing matches, the
 * Add User modal and the Email Template Configurations. The search, page size and page live in
 * the query string, so Back from a user returns to them.
 */
export function UserRegistrationRoute() {
  const users = useAllUsers();
  // The search filters the list in the browser, so it applies as the user types.
  const search = useUrlSearch('search', 0, PAGE_PARAMS);
  const paging = useUrlPageNumber(PAGE_SIZES.users, DEFAULT_PAGE_SIZE);
  const { pageSize } = paging;
  const [adding, setAdding] = useFormDraft('users.add.open', false);
  const [editingTemplate, setEditingTemplate] = useState(false);

  const applied = search.applied ?? '';
  const matches = useMemo(() => searchUsers(users.data ?? [], applied), [users.data, applied]);
  const pager = paging.pagerProps(users.isError ? 0 : users.data && matches.length);
  const visible = users.data
    ? matches.slice((pager.page - 1) * pageSize, pager.page * pageSize)
    : undefined;

  return (
    <NodeScreen title={USER_LABELS.heading}>
      <Paper withBorder radius="lg" data-testid="user-list">
        <Stack gap={0}>
          <Box p="md">
            <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
              {/* The same search box as every other list: compact, with a clear button. */}
              <SearchInput
                label={USER_LABELS.search}
                placeholder={USER_LABELS.searchPlaceholder}
                name="user_search"
                value={search.text}
                onChange={search.change}
                width={300}
              />
              <Group gap="sm" align="flex-end">
                <RefreshButton
                  label={USER_LABELS.refresh}
                  onClick={() => void users.refetch()}
                  loading={users.isFetching && !users.isPending}
                />
                <Button
                  variant="default"
                  leftSection={<IconMailCog size={16} aria-hidden="true" />}
                  onClick={() => setEditingTemplate(true)}
                >
                  {USER_LABELS.emailTemplate}
                </Button>
                <Button
                  leftSection={<IconUserPlus size={16} aria-hidden="true" />}
                  onClick={() => setAdding(true)}
                >
                  {USER_LABELS.addUser}
                </Button>
              </Group>
            </Group>
          </Box>
          <FetchingBar active={users.isFetching} label={USER_LABELS.refresh} />
          <Divider />
          {users.isError ? (
            <QueryErrorAlert
              m="md"
              error={users.error}
              retryLabel={USER_LABELS.tryAgain}
              onRetry={() => void users.refetch()}
            />
          ) : (
            <UserTable users={visible} skeletonRows={Math.min(pageSize, 5)} />
          )}
          <Divider />
          <Box p="md">
            <NodeTablePager {...pager} />
          </Box>
        </Stack>
      </Paper>
      <AddUserModal opened={adding} onClose={() => setAdding(false)} />
      <Modal
        opened={editingTemplate}
        onClose={() => setEditingTemplate(false)}
        title={USER_LABELS.emailTemplateHeading}
        size="xl"
      >
        {editingTemplate && (
          <Suspense
            fallback={
              <Center py="xl">
                <Loader size="sm" aria-label={USER_LABELS.loadingTemplateEditor} />
              </Center>
            }
          >
            <EmailTemplateEditor emailMobileUserpool />
          </Suspense>
        )}
      </Modal>
    </NodeScreen>
  );
}

import {
  DEFAULT_PAGE_SIZE,
  MESSAGES,
  PAGE_SIZES,
  SERVER_MESSAGES,
  TOAST_AUTO_CLOSE_MS,
} from '@fleetdeck/contract';
import { Anchor, Box, Button, Divider, Group, Paper, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconArchive,
  IconArchiveOff,
  IconArrowLeft,
  IconPlus,
  IconRocket,
  IconTrash,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { FetchingBar } from '../../../components/fetching-bar';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { errorMessage } from '../../../lib/api-error';
import { useDialogTarget } from '../../../lib/use-dialog-target';
import { useSessionUser } from '../../auth/components/session-user';
import { NodeScreen } from '../../nodes/components/node-screen';
import { NodeTablePager } from '../../nodes/components/node-table-pager';
import { SearchInput } from '../../nodes/components/search-input';
import { SEARCH_DEBOUNCE_MS } from '../../nodes/components/use-search-filter';
import { useUrlSearch } from '../../nodes/components/use-url-search';
import { PAGE_PARAMS, isGonePage, isIdCursor } from '../../../lib/list-position';
import { useFirstPageWhenGone, useUrlCursorPaging } from '../../../lib/use-url-paging';
import { useArchiveImage } from '../api/archive-image.mutation';
import { firmwareKeys } from '../api/firmware.keys';
import {
  imageListQueryOptions,
  useImageList,
  type ImageListRequest,
} from '../api/image-list.query';
import { FIRMWARE_LABELS } from '../labels';
import { IMAGE_MODES, type ImageMode } from '../model/image-modes';
import { AddImageModal } from './add-image-modal';
import { DeleteImageModal } from './delete-image-modal';
import { ImageTable, type ImageAction } from './image-table';
import { StartOtaModal, type OtaImageRef } from './start-ota-modal';
import { RefreshButton } from '../../../components/refresh-button';

/**
 * The image lists (fleet-management §2; access §2 Fault screens): 'Wifi Firmware Images',
 * the archived images, the fault images and the archived fault images. A search by name, type
 * or model, cursor paging 5/10/25 (default 10), refresh, and per row Start OTA and Archive, or
 * Unarchive (and Delete) on the archived lists. Search and page size start again at page 1.
 * The search and the page live in the query string, so Back from an image returns to them.
 */
export function ImageListScreen({ mode, archived }: { mode: ImageMode; archived: boolean }) {
  const config = IMAGE_MODES[mode];
  const user = useSessionUser();
  const canWrite = user.permissions.includes(config.writePermission);
  const canStartOta = user.permissions.includes('ota.write');
  const queryClient = useQueryClient();
  const search = useUrlSearch('search', SEARCH_DEBOUNCE_MS, PAGE_PARAMS);
  const scope = search.applied ?? '';
  const paging = useUrlCursorPaging(PAGE_SIZES.images, DEFAULT_PAGE_SIZE, isIdCursor);
  const { pageSize } = paging;
  const [adding, setAdding] = useState(false);
  const pushing = useDialogTarget<OtaImageRef>();
  const deleting = useDialogTarget<OtaImageRef>();
  const archive = useArchiveImage();

  const request: ImageListRequest = {
    start_id: paging.cursor,
    num_records: pageSize,
    contains: search.applied,
    archived,
    fault_image: config.faultImage,
  };
  const query = useImageList(request);
  const stale = query.isPlaceholderData;
  const nextId = stale ? undefined : query.data?.next_id;
  useFirstPageWhenGone(
    paging,
    isGonePage({ rows: query.data?.ota_images, error: query.error, placeholder: stale }),
  );

  // Fetch the next page ahead so that Next is instant.
  useEffect(() => {
    if (nextId === undefined) return;
    void queryClient.prefetchQuery(imageListQueryOptions({ ...request, start_id: nextId }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [nextId, scope, pageSize, paging.cursor, archived, mode, queryClient]);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: firmwareKeys.lists(), refetchType: 'none' });
    void query.refetch();
  };

  const setArchived = (image: OtaImageRef, value: boolean) =>
    archive.mutate(
      { ota_image_id: image.ota_image_id, archive: value },
      {
        onSuccess: (body) =>
          notifications.show({
            color: 'fleet',
            message:
              body.description ||
              (value ? SERVER_MESSAGES.imageArchivedDone : SERVER_MESSAGES.imageUnarchivedDone),
            autoClose: TOAST_AUTO_CLOSE_MS,
          }),
        onError: (error) =>
          notifications.show({
            color: 'red',
            message: errorMessage(error),
            autoClose: TOAST_AUTO_CLOSE_MS,
          }),
      },
    );

  const busyId = archive.isPending ? archive.variables.ota_image_id : undefined;
  const actions: ImageAction[] = [];
  if (!archived && canStartOta)
    actions.push({
      label: FIRMWARE_LABELS.startOta,
      icon: <IconRocket size={14} aria-hidden="true" />,
      onClick: pushing.open,
    });
  if (!archived && canWrite)
    actions.push({
      label: FIRMWARE_LABELS.archive,
      icon: <IconArchive size={14} aria-hidden="true" />,
      color: 'gray',
      onClick: (image) => setArchived(image, true),
      busyId,
    });
  if (archived && canWrite)
    actions.push({
      label: FIRMWARE_LABELS.unarchive,
      icon: <IconArchiveOff size={14} aria-hidden="true" />,
      onClick: (image) => setArchived(image, false),
      busyId,
    });
  if (archived && canWrite && config.deleteFromArchive)
    actions.push({
      label: FIRMWARE_LABELS.deleteImage,
      icon: <IconTrash size={14} aria-hidden="true" />,
      color: 'red',
      onClick: deleting.open,
    });

  return (
    <NodeScreen title={archived ? config.archivedHeading : config.heading}>
      <Paper withBorder radius="lg" data-testid="image-list">
        <Stack gap={0}>
          <Box p="md">
            <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
              <Group align="flex-end" gap="md" wrap="wrap" style={{ flex: '1 1 auto' }}>
                <SearchInput
                  label={FIRMWARE_LABELS.search}
                  placeholder={FIRMWARE_LABELS.searchPlaceholder}
                  name="image_search"
                  value={search.text}
                  onChange={search.change}
                  onEnter={search.applyNow}
                  width={280}
                />
                <Anchor
                  component={Link}
                  to={archived ? config.listPath : config.archivedPath}
                  size="sm"
                  pb={8}
                >
                  {archived ? (
                    <Group gap={4} component="span">
                      <IconArrowLeft size={14} aria-hidden="true" />
                      {config.backLabel}
                    </Group>
                  ) : (
                    FIRMWARE_LABELS.archivedLink
                  )}
                </Anchor>
                {!archived && (
                  <Anchor
                    component={Link}
                    to={config.jobsPath}
                    size="sm"
                    pb={8}
                    data-testid="image-jobs-link"
                  >
                    {config.jobsLabel}
                  </Anchor>
                )}
              </Group>
              <Group gap="sm" wrap="wrap" align="flex-end">
                <RefreshButton
                  label={FIRMWARE_LABELS.refresh}
                  onClick={refresh}
                  loading={query.isFetching && !query.isPending}
                />
                {!archived && canWrite && (
                  <Button
                    leftSection={<IconPlus size={16} aria-hidden="true" />}
                    onClick={() => setAdding(true)}
                  >
                    {config.addLabel}
                  </Button>
                )}
              </Group>
            </Group>
          </Box>
          <FetchingBar active={query.isFetching} label={FIRMWARE_LABELS.refresh} />
          <Divider />
          {query.isError ? (
            <QueryErrorAlert
              m="md"
              error={query.error}
              retryLabel={FIRMWARE_LABELS.tryAgain}
              onRetry={() => void query.refetch()}
            />
          ) : (
            <ImageTable
              label={archived ? config.archivedHeading : config.heading}
              config={config}
              images={query.data?.ota_images}
              skeletonRows={pageSize}
              stale={stale}
              actions={actions}
              emptyMessage={MESSAGES.firmwareImageNotFound}
            />
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
      {canWrite && !archived && (
        <AddImageModal config={config} opened={adding} onClose={() => setAdding(false)} />
      )}
      {canStartOta && (
        <StartOtaModal
          key={pushing.target?.ota_image_id ?? 'closed'}
          image={pushing.target}
          onClose={pushing.close}
        />
      )}
      {deleting.target !== null && (
        <DeleteImageModal
          image={deleting.target}
          onCancel={deleting.close}
          onFinished={deleting.close}
        />
      )}
    </NodeScreen>
  );
}

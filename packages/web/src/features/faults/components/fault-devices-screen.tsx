import { DEFAULT_PAGE_SIZE, MESSAGES, PAGE_SIZES, formatMessage } from '@fleetdeck/contract';
import type { OtaImage } from '@fleetdeck/contract';
import {
  Anchor,
  Box,
  Divider,
  Flex,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router';
import { FetchingBar } from '../../../components/fetching-bar';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { useDialogTarget } from '../../../lib/use-dialog-target';
import { useSessionUser } from '../../auth/components/session-user';
import { useDiagnosticsLinks } from '../../diagnostics/use-diagnostics-links';
import { StartOtaModal, type OtaImageRef } from '../../firmware/components/start-ota-modal';
import { NodeTablePager } from '../../nodes/components/node-table-pager';
import { SearchInput } from '../../nodes/components/search-input';
import { PAGE_PARAMS, isGonePage, isIdCursor } from '../../../lib/list-position';
import { useFirstPageWhenGone, useUrlCursorPaging } from '../../../lib/use-url-paging';
import { useFaultBreakdown } from '../api/fault-breakdown.query';
import { useFaultCatalogue } from '../api/fault-catalogue.query';
import { useFaultImages } from '../api/fault-images.query';
import {
  faultNodesQueryOptions,
  useFaultNodes,
  type FaultNodesRequest,
} from '../api/fault-nodes.query';
import { faultKeys } from '../api/faults.keys';
import { FAULT_LABELS } from '../labels';
import { findDefinition } from '../model/fault-catalogue';
import { faultDevicesPath, faultListPath } from '../model/fault-paths';
import type { FaultTypeKey } from '../model/fault-types';
import { FaultBreakdownPanel } from './fault-breakdown-panel';
import { FaultDeviceTable } from './fault-device-table';
import { FaultImageCard } from './fault-image-card';
import { FaultTypeSelect } from './fault-type-select';
import { SEARCH_DEBOUNCE_MS } from '../../nodes/components/use-search-filter';
import { useUrlSearch } from '../../nodes/components/use-url-search';
import { RefreshButton } from '../../../components/refresh-button';

/** The breakdown column beside the list on wide screens; below it on narrow ones. */
const BREAKDOWN_WIDTH = 300;

/**
 * The fault device list (access §2 Fault screens): '{count} Devices With Fault {code}', a type
 * select, an exact search by display code or device id, the devices reporting the code now (cursor
 * paging 10/20/25), and beside it how they split by firmware version, model and city, with the
 * fault image for the code when there is one. `code` is the error code (a display code in a
 * hand-typed URL is understood too). The search and the page live in the query string, so Back
 * from a device returns to them.
 */
export function FaultDevicesScreen({ type, code }: { type: FaultTypeKey; code: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useSessionUser();
  const canPush = user.permissions.includes('ota.write');
  const diagnosticsLinks = useDiagnosticsLinks();
  const catalogue = useFaultCatalogue(type);
  const definition = findDefinition(catalogue.data ?? [], code);
  const errCode = definition?.err_code ?? code;
  const shownCode = definition?.disp_code ?? code;
  const search = useUrlSearch('search', SEARCH_DEBOUNCE_MS, PAGE_PARAMS);
  const scope = `${type}|${errCode}|${search.applied ?? ''}`;
  const paging = useUrlCursorPaging(PAGE_SIZES.faultDeviceList, DEFAULT_PAGE_SIZE, isIdCursor);
  const pushing = useDialogTarget<OtaImageRef>();

  const request: FaultNodesRequest = {
    type,
    code: errCode,
    search: search.applied,
    start_id: paging.cursor,
    num_records: paging.pageSize,
  };
  // Until the catalogue answers, a display code in the URL cannot be told from an error code.
  // A catalogue that fails does not hold the list up: its rows carry their own descriptions.
  const ready = !catalogue.isPending || catalogue.failureCount > 0;
  const nodes = useFaultNodes(request, ready);
  const breakdown = useFaultBreakdown(type, errCode, ready);
  const images = useFaultImages(
    type,
    definition === undefined ? [code] : [definition.err_code, definition.disp_code],
    ready,
  );
  const stale = nodes.isPlaceholderData;
  const nextId = stale ? undefined : nodes.data?.next;
  useFirstPageWhenGone(
    paging,
    isGonePage({ rows: nodes.data?.nodes, error: nodes.error, placeholder: stale }),
  );

  useEffect(() => {
    if (nextId === undefined) return;
    void queryClient.prefetchQuery(faultNodesQueryOptions({ ...request, start_id: nextId }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [nextId, scope, paging.pageSize, paging.cursor, queryClient]);

  // The title counts every device with the fault, not the matches of a search: the list's own
  // count while it shows the whole list, else (searching, or a page still loading) the breakdown's.
  const total =
    (search.applied === undefined && !stale ? nodes.data?.count : undefined) ??
    breakdown.data?.total;
  const title =
    total === undefined || nodes.isError
      ? undefined
      : formatMessage(FAULT_LABELS.devicesWithFault, { count: total, code: shownCode });
  useDocumentTitle(
    `${title ?? formatMessage(FAULT_LABELS.devicesWithFault, { count: '…', code: shownCode })} · Fleetdeck`,
  );

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: faultKeys.current(), refetchType: 'none' });
    void nodes.refetch();
    void breakdown.refetch();
  };

  const pushImage = (image: OtaImage) =>
    pushing.open({
      ota_image_id: image.ota_image_id,
      image_name: image.image_name,
      ...(image.fault_id !== undefined ? { fault_id: image.fault_id } : {}),
    });

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Anchor component={Link} to={faultListPath(type)} size="sm">
          <Group gap={4} component="span">
            <IconArrowLeft size={14} aria-hidden="true" />
            {FAULT_LABELS.backToFaultList}
          </Group>
        </Anchor>
        <Title order={1} size="h2" data-testid="fault-devices-title">
          {title ??
            (nodes.isError ? (
              formatMessage(FAULT_LABELS.devicesWithFaultUnknown, { code: shownCode })
            ) : (
              <Skeleton component="span" display="inline-block" height={28} width={320} />
            ))}
        </Title>
        {definition !== undefined && (
          <Text c="dimmed" size="sm">
            {definition.description}
            <Text span c="dimmed" size="sm">
              {' '}
              · {FAULT_LABELS.columnErrorCode} {definition.err_code}
            </Text>
          </Text>
        )}
      </Stack>
      <Flex
        direction={{ base: 'column', lg: 'row' }}
        gap="lg"
        align={{ base: 'stretch', lg: 'flex-start' }}
      >
        <Box style={{ flex: '1 1 0', minWidth: 0 }}>
          <Paper withBorder radius="lg" data-testid="fault-device-list">
            <Stack gap={0}>
              <Box p="md">
                <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
                  <Group align="flex-end" gap="sm" wrap="wrap" style={{ flex: '1 1 auto' }}>
                    <FaultTypeSelect
                      value={type}
                      short
                      onChange={(next) => void navigate(faultDevicesPath(next, errCode))}
                    />
                    <SearchInput
                      label={FAULT_LABELS.searchFault}
                      placeholder={FAULT_LABELS.searchFaultPlaceholder}
                      name="fault_search"
                      value={search.text}
                      onChange={search.change}
                      onEnter={search.applyNow}
                      width={300}
                    />
                  </Group>
                  <RefreshButton
                    label={FAULT_LABELS.refresh}
                    onClick={refresh}
                    loading={nodes.isFetching && !nodes.isPending}
                  />
                </Group>
                {search.applied !== undefined && nodes.data !== undefined && !stale && (
                  <Text size="sm" c="dimmed" mt="xs" aria-live="polite">
                    {formatMessage(FAULT_LABELS.searchMatches, {
                      count: nodes.data.count,
                      search: search.applied,
                    })}
                  </Text>
                )}
              </Box>
              <FetchingBar active={nodes.isFetching} label={FAULT_LABELS.refresh} />
              <Divider />
              {nodes.isError ? (
                <QueryErrorAlert
                  m="md"
                  error={nodes.error}
                  retryLabel={FAULT_LABELS.tryAgain}
                  onRetry={() => void nodes.refetch()}
                />
              ) : (
                <FaultDeviceTable
                  nodes={nodes.data?.nodes}
                  skeletonRows={paging.pageSize}
                  emptyMessage={MESSAGES.noDataFound}
                  diagnosticsLinks={diagnosticsLinks}
                  stale={stale}
                />
              )}
              <Divider />
              <Box p="md">
                <NodeTablePager
                  {...paging.pagerProps(
                    nodes.isError ? undefined : nodes.data?.count,
                    nextId,
                    nodes.isPending,
                  )}
                />
              </Box>
            </Stack>
          </Paper>
        </Box>
        <Stack gap="lg" w={{ base: '100%', lg: BREAKDOWN_WIDTH }} style={{ flexShrink: 0 }}>
          <FaultBreakdownPanel
            code={shownCode}
            breakdown={breakdown.data}
            isPending={breakdown.isPending}
            error={breakdown.isError ? breakdown.error : null}
            onRetry={() => void breakdown.refetch()}
          />
          <FaultImageCard
            code={shownCode}
            images={images.data}
            isPending={images.isPending}
            error={images.isError ? images.error : null}
            canPush={canPush}
            onPush={pushImage}
          />
        </Stack>
      </Flex>
      {canPush && (
        <StartOtaModal
          key={pushing.target?.ota_image_id ?? 'closed'}
          image={pushing.target}
          onClose={pushing.close}
        />
      )}
    </Stack>
  );
}

import { PAGE_SIZES, formatMessage } from '@fleetdeck/contract';
import { Button, Group, NativeSelect, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { memo } from 'react';
import { NODE_LABELS } from '../labels';

/**
 * Prev, 'Page X of Y', Next and the page size (fleet-management §2, §4). Memoised: with stable
 * handlers it renders only when the page, the count or the size changes.
 */
export const NodeTablePager = memo(function NodeTablePager({
  page,
  pages,
  canPrev,
  canNext,
  onPrev,
  onNext,
  pageSize,
  selectedCount,
  onPageSize,
  pageSizes = PAGE_SIZES.devices,
}: {
  page: number;
  /** Undefined while the first page is loading: the count shows as a placeholder, not as 1. */
  pages: number | undefined;
  canPrev: boolean;
  canNext: boolean;
  onPrev: () => void;
  onNext: () => void;
  pageSize: number;
  /** Shown beside the page size, where it moves nothing when it appears. */
  selectedCount: number;
  onPageSize: (size: number) => void;
  /** The sizes offered (devices 5/10/15/25 unless given). */
  pageSizes?: readonly number[];
}) {
  return (
    <Group justify="space-between" gap="sm" wrap="wrap">
      <Group gap="xs" wrap="nowrap">
        <Text size="sm" c="dimmed" component="label" htmlFor="node-page-size">
          {NODE_LABELS.rowsPerPage}
        </Text>
        <NativeSelect
          id="node-page-size"
          size="xs"
          w={72}
          data={pageSizes.map(String)}
          value={String(pageSize)}
          onChange={(event) => onPageSize(Number(event.currentTarget.value))}
        />
        {selectedCount > 0 && (
          <Text size="sm" fw={500} ml="sm" data-testid="node-selection-count">
            {formatMessage(NODE_LABELS.selectedCount, { count: selectedCount })}
          </Text>
        )}
      </Group>
      <Group gap="sm" wrap="nowrap">
        <Button
          variant="default"
          size="xs"
          leftSection={<IconChevronLeft size={14} aria-hidden="true" />}
          disabled={!canPrev}
          onClick={onPrev}
        >
          {NODE_LABELS.prev}
        </Button>
        <Text
          size="sm"
          aria-live="polite"
          aria-busy={pages === undefined}
          data-testid="node-page-status"
          miw={96}
          ta="center"
        >
          {formatMessage(NODE_LABELS.pageOf, { page, pages: pages ?? NODE_LABELS.pagesLoading })}
        </Text>
        <Button
          variant="default"
          size="xs"
          rightSection={<IconChevronRight size={14} aria-hidden="true" />}
          disabled={!canNext}
          onClick={onNext}
        >
          {NODE_LABELS.next}
        </Button>
      </Group>
    </Group>
  );
});

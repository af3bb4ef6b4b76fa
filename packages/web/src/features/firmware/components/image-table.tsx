import type { OtaImage } from '@fleetdeck/contract';
import { Anchor, Button, Group, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { FIRMWARE_LABELS } from '../labels';
import { formatListDate } from '../../ota/model/job-dates';
import { imageDetailsPath, type ImageModeConfig } from '../model/image-modes';
import { SkeletonRows } from '../../../components/skeleton-rows';
import { StackedTableContainer, stackedTable } from '../../../components/stacked-table';

export interface ImageAction {
  label: string;
  icon: ReactNode;
  color?: string;
  onClick: (image: OtaImage) => void;
  /** The image this action is working on shows a spinner. */
  busyId?: string | undefined;
}

const COLUMNS = [
  FIRMWARE_LABELS.columnImageName,
  FIRMWARE_LABELS.columnType,
  FIRMWARE_LABELS.columnVersion,
  FIRMWARE_LABELS.columnModel,
  FIRMWARE_LABELS.columnUploadedAt,
];

/**
 * The image table (fleet-management §2; access §2 Fault screens): Image Name (links to the
 * details), Type, Version, Model, Uploaded At and, when given, the row actions. A card per image
 * on a phone, its actions below.
 */
export function ImageTable({
  label,
  config,
  images,
  skeletonRows,
  stale,
  actions,
  emptyMessage,
}: {
  /** The list's name (the screen's heading). */
  label: string;
  config: ImageModeConfig;
  images: readonly OtaImage[] | undefined;
  skeletonRows: number;
  stale: boolean;
  actions: readonly ImageAction[];
  emptyMessage: string;
}) {
  const columns = actions.length > 0 ? [...COLUMNS, FIRMWARE_LABELS.columnActions] : COLUMNS;
  return (
    <StackedTableContainer label={label} minWidth={760}>
      <Table
        verticalSpacing="sm"
        highlightOnHover
        className={stackedTable.table}
        data-testid="image-table"
        style={{ opacity: stale ? 0.6 : 1, transition: 'opacity 120ms' }}
        aria-busy={images === undefined || stale}
      >
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column}>{column}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {images === undefined && <SkeletonRows rows={skeletonRows} columns={columns.length} />}
          {images?.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={columns.length}>
                <Text c="dimmed" ta="center" py="lg" data-testid="images-empty">
                  {emptyMessage}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {images?.map((image) => (
            <Table.Tr key={image.ota_image_id} data-image-id={image.ota_image_id}>
              <Table.Td data-title>
                <Anchor
                  component={Link}
                  to={imageDetailsPath(config.mode, image.ota_image_id)}
                  fw={500}
                >
                  {image.image_name}
                </Anchor>
              </Table.Td>
              <Table.Td data-label={FIRMWARE_LABELS.columnType}>{image.type}</Table.Td>
              <Table.Td data-label={FIRMWARE_LABELS.columnVersion}>
                {image.fw_version || FIRMWARE_LABELS.none}
              </Table.Td>
              <Table.Td data-label={FIRMWARE_LABELS.columnModel}>
                {image.model || FIRMWARE_LABELS.none}
              </Table.Td>
              <Table.Td
                data-label={FIRMWARE_LABELS.columnUploadedAt}
                style={{ whiteSpace: 'nowrap' }}
              >
                {formatListDate(image.upload_timestamp, { utc: config.utcDates }) ??
                  FIRMWARE_LABELS.none}
              </Table.Td>
              {actions.length > 0 && (
                <Table.Td data-actions>
                  <Group gap="xs" wrap="nowrap">
                    {actions.map((action) => (
                      <Button
                        key={action.label}
                        size="xs"
                        variant="light"
                        color={action.color}
                        leftSection={action.icon}
                        loading={action.busyId === image.ota_image_id}
                        onClick={() => action.onClick(image)}
                        aria-label={`${action.label} ${image.image_name}`}
                      >
                        {action.label}
                      </Button>
                    ))}
                  </Group>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </StackedTableContainer>
  );
}

import { NODE_LIST_MAX_RECORDS, TOAST_AUTO_CLOSE_MS, formatMessage } from '@fleetdeck/contract';
import { Box, Button, Progress, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconX } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../../lib/api-error';
import { fetchAdminNodes, useOwnNodesOnly, type AdminNodesFilters } from '../api/admin-nodes.query';
import { NODE_LABELS } from '../labels';
import { CSV_MIME_TYPE } from '../model/csv';
import { downloadNodesCsv, nodeCsvFileName, type CsvProgress } from '../model/csv-download';

/** Wide enough for 'Download All CSV', so the button keeps its size as it turns into Cancel. */
const BUTTON_MIN_WIDTH = 196;

/** Hands a finished file to the browser as a download. */
function saveFile(parts: string[], fileName: string): void {
  const url = URL.createObjectURL(new Blob(parts, { type: CSV_MIME_TYPE }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next turn: the click has started the download by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Download All CSV (access §2, §7): every node matching the screen's filters, 100 per request,
 * following next_id to the end, with progress and a Cancel. Leaving the screen cancels too.
 */
export function CsvDownloadButton({ filters }: { filters: AdminNodesFilters }) {
  const own = useOwnNodesOnly();
  const [progress, setProgress] = useState<CsvProgress | null>(null);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const start = async () => {
    const abort = new AbortController();
    controller.current = abort;
    setProgress({ done: 0, total: 0 });
    try {
      const csv = await downloadNodesCsv(
        (startId, signal) =>
          fetchAdminNodes(
            {
              ...filters,
              num_records: NODE_LIST_MAX_RECORDS,
              start_id: startId,
              ...(own ? { own } : {}),
            },
            signal,
          ),
        { signal: abort.signal, onProgress: setProgress },
      );
      saveFile(csv.parts, nodeCsvFileName(new Date()));
      notifications.show({
        color: 'green',
        message: formatMessage(NODE_LABELS.csvDone, { count: csv.count }),
        autoClose: TOAST_AUTO_CLOSE_MS,
      });
    } catch (error) {
      if (!abort.signal.aborted) {
        notifications.show({
          color: 'red',
          message: formatMessage(NODE_LABELS.csvFailed, { reason: errorMessage(error) }),
          autoClose: TOAST_AUTO_CLOSE_MS,
        });
      }
    } finally {
      if (controller.current === abort) {
        controller.current = null;
        setProgress(null);
      }
    }
  };

  const running = progress !== null;
  const percent =
    progress !== null && progress.total > 0
      ? Math.round((progress.done / progress.total) * 100)
      : null;

  // One button that turns into Cancel while the file is built, with the progress along its
  // bottom edge: nothing around it moves when a download starts or ends.
  return (
    <Box pos="relative" miw={BUTTON_MIN_WIDTH}>
      <Button
        fullWidth
        variant={running ? 'light' : 'default'}
        color={running ? 'red' : undefined}
        leftSection={
          running ? (
            <IconX size={16} aria-hidden="true" />
          ) : (
            <IconDownload size={16} aria-hidden="true" />
          )
        }
        onClick={() => (running ? controller.current?.abort() : void start())}
      >
        {running
          ? percent === null
            ? NODE_LABELS.csvCancel
            : `${NODE_LABELS.csvCancel} · ${percent}%`
          : NODE_LABELS.downloadAllCsv}
      </Button>
      {progress !== null && (
        <>
          <Progress
            value={percent ?? 100}
            animated={percent === null}
            size={3}
            radius={0}
            pos="absolute"
            left={8}
            right={8}
            bottom={2}
            aria-label={NODE_LABELS.downloadAllCsv}
            data-testid="csv-progress"
          />
          <VisuallyHidden aria-live="polite">
            {formatMessage(NODE_LABELS.csvProgress, {
              done: progress.done.toLocaleString(),
              total: progress.total.toLocaleString(),
            })}
          </VisuallyHidden>
        </>
      )}
    </Box>
  );
}

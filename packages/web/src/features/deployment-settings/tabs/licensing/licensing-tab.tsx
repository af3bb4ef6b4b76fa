import { MESSAGES, TOAST_AUTO_CLOSE_MS, formatMessage } from '@fleetdeck/contract';
import { Alert, Button, Center, FileInput, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileCertificate, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { QueryErrorAlert } from '../../../../components/query-error-alert';
import { TableScrollRegion } from '../../../../components/table-scroll-region';
import { errorMessage } from '../../../../lib/api-error';
import { formatListDate } from '../../../ota/model/job-dates';
import { useLicenseFiles } from '../../api/license-files.query';
import { useUploadLicense } from '../../api/license-upload.mutation';
import { DEPLOYMENT_LABELS as L } from '../../labels';
import type { DeploymentTabProps } from '../../tab-registry';

/** Licensing Service (access §2, §5): the current licence and the upload of a .pem file. */
export function LicensingTab(_props: DeploymentTabProps) {
  const files = useLicenseFiles();
  const upload = useUploadLicense();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);

  const choose = (next: File | null) => {
    setFile(next);
    setError(next && !next.name.toLowerCase().endsWith('.pem') ? L.pemOnly : null);
  };

  const submit = () => {
    if (!file) return;
    if (!file.name.toLowerCase().endsWith('.pem')) {
      setError(L.pemOnly);
      return;
    }
    upload.mutate(file, {
      onSuccess: () => {
        notifications.show({
          color: 'fleet',
          message: MESSAGES.licenseUploaded,
          autoClose: TOAST_AUTO_CLOSE_MS,
        });
        setFile(null);
        setError(null);
      },
      onError: (failure) => setError(errorMessage(failure)),
    });
  };

  const current = files.data?.license_files ?? [];

  return (
    <Stack gap="lg" maw={760}>
      {files.isPending ? (
        <Center py="md">
          <Loader size="sm" aria-label={L.loadingLicence} />
        </Center>
      ) : files.isError ? (
        <QueryErrorAlert
          error={files.error}
          retryLabel={L.retry}
          onRetry={() => void files.refetch()}
        />
      ) : current.length === 0 ? (
        <Alert
          variant="light"
          color="gray"
          icon={<IconFileCertificate size={18} aria-hidden="true" />}
        >
          {L.noLicence}
        </Alert>
      ) : (
        <TableScrollRegion label={L.licenceTable} minWidth={520}>
          <Table withTableBorder verticalSpacing="sm" aria-label={L.licenceTable}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{L.columnFileName}</Table.Th>
                <Table.Th>{L.columnDateModified}</Table.Th>
                <Table.Th>{L.columnCertificate}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {current.map((license) => (
                <Table.Tr key={license.file_name}>
                  <Table.Td>{license.file_name}</Table.Td>
                  <Table.Td>
                    {formatListDate(license.date_modified, { utc: true }) ?? L.noValue}
                  </Table.Td>
                  <Table.Td>
                    {license.details?.subject ? (
                      <Stack gap={0}>
                        <Text size="sm">{license.details.subject}</Text>
                        {license.details.valid_to && (
                          <Text size="xs" c="dimmed">
                            {formatMessage(L.certificateValidUntil, {
                              date: license.details.valid_to.slice(0, 10),
                            })}
                          </Text>
                        )}
                      </Stack>
                    ) : (
                      <Text size="sm" c="dimmed">
                        {license.details?.pem_type ?? L.pemFallback}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScrollRegion>
      )}

      <Stack gap="xs">
        <Group align="flex-end" gap="sm">
          <FileInput
            label={L.licenceFile}
            description={L.licenceFileHint}
            placeholder={L.chooseLicenceFile}
            accept=".pem"
            value={file}
            onChange={choose}
            clearable
            error={error}
            w={{ base: '100%', sm: 360 }}
            leftSection={<IconFileCertificate size={16} aria-hidden="true" />}
          />
          <Button
            onClick={submit}
            loading={upload.isPending}
            disabled={!file || error === L.pemOnly}
            leftSection={<IconUpload size={16} aria-hidden="true" />}
          >
            {L.upload}
          </Button>
        </Group>
      </Stack>
    </Stack>
  );
}

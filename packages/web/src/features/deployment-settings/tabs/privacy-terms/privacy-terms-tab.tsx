import {
  LABELS,
  MESSAGES,
  TERMS_MAX_CHARS,
  TOAST_AUTO_CLOSE_MS,
  formatMessage,
  type TermsDocument,
  type TermsFile,
} from '@fleetdeck/contract';
import {
  Anchor,
  Button,
  Center,
  Code,
  Divider,
  Group,
  Loader,
  ScrollArea,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconExternalLink } from '@tabler/icons-react';
import { useState } from 'react';
import { QueryErrorAlert } from '../../../../components/query-error-alert';
import { errorMessage } from '../../../../lib/api-error';
import { useTermsPolicy } from '../../api/terms-policy.query';
import { useDeleteTermsDocument, useSaveTermsDocument } from '../../api/terms-save.mutation';
import { DEPLOYMENT_LABELS as L } from '../../labels';
import type { DeploymentTabProps } from '../../tab-registry';

const SECTIONS: Array<{ file: TermsFile; title: string; updated: string; deleted: string }> = [
  {
    file: 'privacy_policy',
    title: L.privacyPolicy,
    updated: MESSAGES.privacyPolicyUpdated,
    deleted: MESSAGES.privacyPolicyDeleted,
  },
  {
    file: 'terms_of_use',
    title: L.termsOfUse,
    updated: MESSAGES.termsOfUseUpdated,
    deleted: MESSAGES.termsOfUseDeleted,
  },
];

const toast = (message: string, color = 'fleet') =>
  notifications.show({ color, message, autoClose: TOAST_AUTO_CLOSE_MS });

/** One document: view (content and public link) or edit; save and delete return to view. */
function TermsSection({
  section,
  document,
}: {
  section: (typeof SECTIONS)[number];
  document: TermsDocument;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const save = useSaveTermsDocument();
  const remove = useDeleteTermsDocument();
  const empty = document.content.trim() === '';
  const headingId = `terms-${section.file}`;

  const submit = () => {
    if (draft === null) return;
    save.mutate(
      { file: section.file, content: draft },
      {
        onSuccess: () => {
          toast(section.updated);
          setDraft(null);
        },
        onError: (error) => toast(errorMessage(error), 'red'),
      },
    );
  };

  const destroy = () =>
    remove.mutate(section.file, {
      onSuccess: () => {
        toast(section.deleted);
        setDraft(null);
      },
      onError: (error) => toast(errorMessage(error), 'red'),
    });

  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId} data-testid={headingId}>
      <Group justify="space-between" align="center">
        <Title order={3} size="h4" id={headingId}>
          {section.title}
        </Title>
        {document.file_url && draft === null && (
          <Anchor href={document.file_url} target="_blank" rel="noopener noreferrer" size="sm">
            <Group gap={4}>
              {L.publicPage} <IconExternalLink size={14} aria-hidden="true" />
            </Group>
          </Anchor>
        )}
      </Group>
      {draft === null ? (
        <>
          {empty ? (
            <Text size="sm" c="dimmed">
              {formatMessage(L.noDocument, { document: section.title })}
            </Text>
          ) : (
            <ScrollArea.Autosize mah={220} type="auto">
              <Code block style={{ whiteSpace: 'pre-wrap' }}>
                {document.content}
              </Code>
            </ScrollArea.Autosize>
          )}
          <Group gap="sm">
            <Button variant="light" onClick={() => setDraft(document.content)}>
              {empty ? L.add : L.edit}
            </Button>
            <Button
              variant="subtle"
              color="red"
              disabled={empty}
              loading={remove.isPending}
              onClick={destroy}
            >
              {L.delete}
            </Button>
          </Group>
        </>
      ) : (
        <>
          <Textarea
            label={formatMessage(L.documentContent, { document: section.title })}
            value={draft}
            onChange={(event) => setDraft(event.currentTarget.value)}
            autosize
            minRows={8}
            maxRows={20}
            maxLength={TERMS_MAX_CHARS}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            data-autofocus
          />
          <Group gap="sm">
            <Button onClick={submit} loading={save.isPending} disabled={draft.trim() === ''}>
              {L.save}
            </Button>
            <Button variant="default" onClick={() => setDraft(null)} disabled={save.isPending}>
              {L.cancel}
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}

/** Privacy Policy and Terms (access §2, §4): two sections, each with view and edit modes. */
export function PrivacyTermsTab(_props: DeploymentTabProps) {
  const policy = useTermsPolicy();
  if (policy.isPending)
    return (
      <Center py="xl">
        <Loader
          size="sm"
          aria-label={formatMessage(L.loadingTab, { tab: LABELS.tabPrivacyPolicyAndTerms })}
        />
      </Center>
    );
  if (policy.isError)
    return (
      <QueryErrorAlert
        error={policy.error}
        retryLabel={L.retry}
        onRetry={() => void policy.refetch()}
      />
    );
  return (
    <Stack gap="lg">
      <Text size="sm" c="dimmed">
        {L.privacyTermsIntro}
      </Text>
      {SECTIONS.map((section, index) => (
        <Stack key={section.file} gap="lg">
          {index > 0 && <Divider />}
          <TermsSection
            section={section}
            document={policy.data[section.file] ?? { content: '', file_url: '' }}
          />
        </Stack>
      ))}
    </Stack>
  );
}

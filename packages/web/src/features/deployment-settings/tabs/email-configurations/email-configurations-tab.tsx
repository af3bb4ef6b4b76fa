import {
  INVITE_MESSAGE_TEMPLATE_TYPE,
  MESSAGES,
  TEMPLATE_FROM_NAME_MAX_LENGTH,
  TEMPLATE_SUBJECT_MAX_LENGTH,
  TEMPLATE_TEXT_MAX_LENGTH,
  TOAST_AUTO_CLOSE_MS,
  TemplateBodySchema,
  VERIFICATION_CODE_LENGTH,
  formatMessage,
  type TemplateResponse,
  type VerifiedSenders,
} from '@fleetdeck/contract';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Center,
  Code,
  Group,
  Loader,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMailPlus, IconTrash } from '@tabler/icons-react';
import { useRef, useState, type FormEvent } from 'react';
import { QueryErrorAlert } from '../../../../components/query-error-alert';
import { TableScrollRegion } from '../../../../components/table-scroll-region';
import { errorMessage } from '../../../../lib/api-error';
import { useMessageTemplate, useSaveTemplate } from '../../../users/api/message-template.query';
import {
  useRemoveSender,
  useRequestSender,
  useVerifiedSenders,
  useVerifySender,
} from '../../../users/api/verified-senders.query';
import { DEPLOYMENT_LABELS as L } from '../../labels';
import type { DeploymentTabProps } from '../../tab-registry';
import { useFormDraft } from '../../../auth/use-form-draft';

function SenderList({ senders }: { senders: VerifiedSenders }) {
  const request = useRequestSender();
  const verify = useVerifySender();
  const remove = useRemoveSender();
  const [email, setEmail] = useState('');
  const [codeFor, setCodeFor] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const sendCode = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblem(null);
    const address = email.trim().toLowerCase();
    request.mutate(address, {
      onSuccess: (answer) => {
        const description = (answer as { description?: string }).description;
        notifications.show({
          color: 'fleet',
          message: description ?? MESSAGES.verificationCodeSent,
          autoClose: TOAST_AUTO_CLOSE_MS,
        });
        setEmail('');
        setCodeFor(address);
        setCode('');
      },
      onError: (error) => setProblem(errorMessage(error)),
    });
  };

  const confirm = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!codeFor) return;
    if (code.trim() === '') {
      setProblem(MESSAGES.enterVerificationCode);
      return;
    }
    setProblem(null);
    verify.mutate(
      { email: codeFor, verification_code: code.trim() },
      {
        onSuccess: () => {
          notifications.show({
            color: 'fleet',
            message: MESSAGES.userVerified,
            autoClose: TOAST_AUTO_CLOSE_MS,
          });
          setCodeFor(null);
          setCode('');
        },
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  };

  const rows = [
    ...senders.verified_email_ids.map((address) => ({ address, verified: true })),
    ...senders.pending_email_ids.map((address) => ({ address, verified: false })),
  ];

  return (
    <Paper withBorder radius="md" p="md" data-testid="sender-list">
      <Stack gap="sm">
        <Stack gap={2}>
          <Text fw={600}>{L.senders}</Text>
          <Text size="sm" c="dimmed">
            {L.sendersHint}
          </Text>
        </Stack>
        <TableScrollRegion label={L.senders} minWidth={420}>
          <Table verticalSpacing="xs" aria-label={L.senders}>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.address} data-sender={row.address}>
                  <Table.Td>
                    <Text size="sm">{row.address}</Text>
                  </Table.Td>
                  <Table.Td>
                    {row.address === senders.default_email_id ? (
                      <Badge variant="light" color="gray" tt="none">
                        {L.senderDeploymentDefault}
                      </Badge>
                    ) : (
                      <Badge variant="light" color={row.verified ? 'teal' : 'yellow'} tt="none">
                        {row.verified ? L.senderVerified : L.senderPending}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      {!row.verified && (
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => {
                            setCodeFor(row.address);
                            setCode('');
                            setProblem(null);
                          }}
                        >
                          {L.enterCode}
                        </Button>
                      )}
                      {row.address !== senders.default_email_id && (
                        <Tooltip
                          label={formatMessage(L.removeSender, { email: row.address })}
                          withArrow
                        >
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={formatMessage(L.removeSender, { email: row.address })}
                            loading={remove.isPending && remove.variables === row.address}
                            onClick={() => {
                              setProblem(null);
                              remove.mutate(row.address, {
                                onError: (error) => setProblem(errorMessage(error)),
                              });
                            }}
                          >
                            <IconTrash size={16} aria-hidden="true" />
                          </ActionIcon>
                        </Tooltip>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScrollRegion>
        {codeFor ? (
          <form onSubmit={confirm} noValidate>
            <Group align="flex-end" gap="sm" wrap="wrap">
              <TextInput
                label={formatMessage(L.codeSentTo, { email: codeFor })}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={VERIFICATION_CODE_LENGTH}
                value={code}
                onChange={(event) => setCode(event.currentTarget.value)}
                w={260}
                data-testid="sender-code"
                data-autofocus
              />
              <Button type="submit" loading={verify.isPending}>
                {L.verify}
              </Button>
              <Button variant="default" onClick={() => setCodeFor(null)}>
                {L.cancel}
              </Button>
            </Group>
          </form>
        ) : (
          <form onSubmit={sendCode} noValidate>
            <Group align="flex-end" gap="sm" wrap="wrap">
              <TextInput
                label={L.newSender}
                type="email"
                placeholder={L.newSenderPlaceholder}
                value={email}
                onChange={(event) => setEmail(event.currentTarget.value)}
                style={{ flex: '1 1 240px', maxWidth: 360 }}
                data-testid="new-sender"
              />
              <Button
                type="submit"
                variant="default"
                leftSection={<IconMailPlus size={16} aria-hidden="true" />}
                loading={request.isPending}
              >
                {L.sendCode}
              </Button>
            </Group>
          </form>
        )}
        {problem && (
          <Alert color="red" variant="light" role="alert">
            {problem}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

function TemplateForm({
  loaded,
  senders,
  type,
  onType,
}: {
  loaded: TemplateResponse;
  senders: VerifiedSenders;
  type: string;
  onType: (type: string) => void;
}) {
  const save = useSaveTemplate();
  const body = useRef<HTMLTextAreaElement>(null);
  const template = loaded.template;
  const draft = `settings.email-template.${type}`;
  const [subject, setSubject] = useFormDraft(`${draft}.subject`, template.message_subject);
  const [text, setText] = useFormDraft(`${draft}.text`, template.message_text);
  const [from, setFrom] = useFormDraft(`${draft}.from`, template.from_email_address);
  const [fromName, setFromName] = useFormDraft(`${draft}.from-name`, template.from_user_name);
  const [problem, setProblem] = useState<string | null>(null);

  const insert = (name: string) => {
    const token = `{{${name}}}`;
    const area = body.current;
    const start = area?.selectionStart ?? text.length;
    const end = area?.selectionEnd ?? text.length;
    const next = text.slice(0, start) + token + text.slice(end);
    setText(next);
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(start + token.length, start + token.length);
    });
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = TemplateBodySchema.safeParse({
      template_type: type,
      message_subject: subject,
      message_text: text,
      from_email_address: from,
      from_user_name: fromName,
    });
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? MESSAGES.somethingWentWrong);
      return;
    }
    setProblem(null);
    save.mutate(parsed.data, {
      onSuccess: () =>
        notifications.show({
          color: 'fleet',
          message: MESSAGES.emailTemplateUpdated,
          autoClose: TOAST_AUTO_CLOSE_MS,
        }),
      onError: (error) => setProblem(errorMessage(error)),
    });
  };

  const fromChoices = senders.verified_email_ids.includes(from)
    ? senders.verified_email_ids
    : [from, ...senders.verified_email_ids];

  return (
    <form onSubmit={submit} noValidate data-testid="email-template-form">
      <Stack gap="md">
        <Select
          size="md"
          label={L.templateType}
          data={loaded.template_types.map((entry) => ({ value: entry.type, label: entry.label }))}
          value={type}
          onChange={(value) => value && onType(value)}
          allowDeselect={false}
          maw={420}
        />
        {template.default && (
          <Text size="sm" c="dimmed">
            {L.templateDefaultNote}
          </Text>
        )}
        <TextInput
          label={L.subject}
          required
          maxLength={TEMPLATE_SUBJECT_MAX_LENGTH}
          value={subject}
          onChange={(event) => setSubject(event.currentTarget.value)}
        />
        <Group grow align="flex-start" gap="md" wrap="wrap">
          <Select
            size="md"
            label={L.fromEmail}
            description={L.fromEmailHint}
            data={fromChoices}
            value={from}
            onChange={(value) => value && setFrom(value)}
            allowDeselect={false}
            data-testid="from-email"
            style={{ minWidth: 240 }}
          />
          <TextInput
            label={L.fromUserName}
            description=" "
            maxLength={TEMPLATE_FROM_NAME_MAX_LENGTH}
            value={fromName}
            onChange={(event) => setFromName(event.currentTarget.value)}
            style={{ minWidth: 200 }}
          />
        </Group>
        <Textarea
          ref={body}
          label={L.templateBody}
          required
          autosize
          minRows={8}
          maxRows={20}
          maxLength={TEMPLATE_TEXT_MAX_LENGTH}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        <Stack gap={6}>
          <Text size="sm" fw={500}>
            {L.placeholders}
          </Text>
          <Stack gap={4} data-testid="template-placeholders">
            {loaded.placeholders.map((entry) => (
              <Group key={entry.name} gap="sm" wrap="nowrap" align="baseline">
                <UnstyledButton
                  onClick={() => insert(entry.name)}
                  aria-label={formatMessage(L.insertPlaceholder, {
                    placeholder: `{{${entry.name}}}`,
                  })}
                >
                  <Code>{`{{${entry.name}}}`}</Code>
                </UnstyledButton>
                <Text size="sm" c="dimmed">
                  {entry.description}
                </Text>
              </Group>
            ))}
          </Stack>
        </Stack>
        {problem && (
          <Alert color="red" variant="light" role="alert" data-testid="template-error">
            {problem}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            {L.saveTemplate}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Deployment Settings › Email Configurations (fleet-management §2 Email Template
 * Configurations; super admins): template type (default 'Welcome Email Notification', the
 * INVITE_MESSAGE mail), subject, from email chosen from the verified senders (with adding and
 * verifying a sender), from user name and body with the supported placeholders. The settings
 * do not depend on the user pool.
 */
export function EmailConfigurationsTab(_props: DeploymentTabProps) {
  const [type, setType] = useState<string>(INVITE_MESSAGE_TEMPLATE_TYPE);
  const template = useMessageTemplate(type);
  const senders = useVerifiedSenders();

  if (template.isPending || senders.isPending)
    return (
      <Center py="xl">
        <Loader size="sm" aria-label={L.loadingTemplate} />
      </Center>
    );
  if (template.isError || senders.isError)
    return (
      <QueryErrorAlert
        error={template.error ?? senders.error}
        retryLabel={L.tryAgain}
        onRetry={() => {
          void template.refetch();
          void senders.refetch();
        }}
      />
    );
  return (
    <Stack gap="xl">
      <TemplateForm
        key={`${type}:${template.data.template.updated_at ?? 'default'}`}
        loaded={template.data}
        senders={senders.data}
        type={type}
        onType={setType}
      />
      <SenderList senders={senders.data} />
    </Stack>
  );
}

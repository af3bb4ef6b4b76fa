import { MESSAGES, type CurrentUser } from '@fleetdeck/contract';
import {
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Image,
  List,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-error';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { useBeginTotp, useConfirmTotp, useDisableTotp } from '../api/totp.mutation';
import { successToast } from '../toast';
import { CodeInput } from './code-input';
import { FormAlert } from './form-alert';

/** Checks a typed code with the contract's CodeFormSchema; the message to show, or the code. */
async function checkCode(code: string): Promise<{ code: string } | { error: string }> {
  const { CodeFormSchema } = await loadSchemas();
  const parsed = CodeFormSchema.safeParse({ code });
  return parsed.success
    ? { code: parsed.data.code }
    : { error: parsed.error.issues[0]?.message ?? MESSAGES.verificationCodeNotValid };
}

/**
 * An authenticator app (TOTP) as the stronger second factor: set-up with a QR code and the
 * secret, confirmation with a code, recovery codes shown once, and removal with a current code.
 */
export function AuthenticatorSettings({ user }: { user: CurrentUser }) {
  const begin = useBeginTotp();
  const confirm = useConfirmTotp();
  const disable = useDisableTotp();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const enabled = user.totp_enabled === true;
  const setup = begin.data;

  const onConfirm = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (confirm.isPending) return;
    const checked = await checkCode(code);
    if ('error' in checked) {
      setError(checked.error);
      return;
    }
    setError(null);
    confirm.mutate(checked.code, {
      onSuccess: (result) => {
        setCode('');
        setRecoveryCodes(result.recovery_codes);
        begin.reset();
        successToast(result.description);
      },
      onError: (failure) => setError(errorMessage(failure)),
    });
  };

  const onDisable = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (disable.isPending) return;
    const checked = await checkCode(code);
    if ('error' in checked) {
      setError(checked.error);
      return;
    }
    setError(null);
    disable.mutate(checked.code, {
      onSuccess: (result) => {
        setCode('');
        setRecoveryCodes(null);
        successToast(result.description);
      },
      onError: (failure) => setError(errorMessage(failure)),
    });
  };

  const codeField = (
    <CodeInput
      aria-label="Authenticator code"
      name="totp-code"
      value={code}
      onChange={(event) => {
        setCode(event.currentTarget.value);
        setError(null);
      }}
      error={error}
      style={{ flex: '1 1 160px' }}
    />
  );

  return (
    <Stack gap="md">
      <Group gap="xs">
        <Text fw={500} size="sm">
          Authenticator app
        </Text>
        <Badge color={enabled ? 'green' : 'gray'} variant="light" size="sm">
          {enabled ? 'On' : 'Off'}
        </Badge>
      </Group>

      {recoveryCodes && (
        <Alert
          color="blue"
          variant="light"
          icon={<IconShieldCheck size={18} aria-hidden="true" />}
          title="Your recovery codes"
        >
          <Stack gap="xs">
            <Text size="sm">
              Each code signs you in once if you lose your phone. They are shown only now: save them
              somewhere safe.
            </Text>
            <SimpleGrid cols={{ base: 2, xs: 2 }} spacing={4} data-testid="recovery-codes">
              {recoveryCodes.map((value) => (
                <Code key={value}>{value}</Code>
              ))}
            </SimpleGrid>
            <Group gap="xs">
              <CopyButton value={recoveryCodes.join('\n')}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" onClick={copy}>
                    {copied ? 'Copied' : 'Copy codes'}
                  </Button>
                )}
              </CopyButton>
              <Button size="xs" variant="subtle" onClick={() => setRecoveryCodes(null)}>
                I have saved them
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}

      {!enabled && !setup && (
        <Stack gap="xs" align="flex-start">
          <Text size="sm" c="dimmed">
            A code from an app such as Google Authenticator or 1Password is safer than a text
            message. Once it is on, sign-in asks for the app&apos;s code instead of an SMS.
          </Text>
          <Button variant="light" onClick={() => begin.mutate()} loading={begin.isPending}>
            Set up authenticator app
          </Button>
          <FormAlert message={begin.isError ? errorMessage(begin.error) : null} />
        </Stack>
      )}

      {!enabled && setup && (
        <form onSubmit={(event) => void onConfirm(event)} noValidate>
          <Stack gap="sm">
            <List type="ordered" size="sm" spacing={4}>
              <List.Item>Scan the QR code with your authenticator app.</List.Item>
              <List.Item>Enter the 6-digit code the app shows.</List.Item>
            </List>
            <Group align="flex-start" gap="lg" wrap="wrap">
              <Image
                src={setup.qr_code}
                alt="QR code to add Fleetdeck to an authenticator app"
                w={176}
                h={176}
                bd="1px solid var(--mantine-color-gray-3)"
              />
              <Stack gap={4} style={{ flex: '1 1 200px', minWidth: 0 }}>
                <Text size="xs" c="dimmed">
                  Cannot scan? Enter this key in the app:
                </Text>
                <Code style={{ wordBreak: 'break-all' }} data-testid="totp-secret">
                  {setup.secret}
                </Code>
              </Stack>
            </Group>
            <Group align="flex-start" gap="sm" wrap="wrap">
              {codeField}
              <Button type="submit" loading={confirm.isPending}>
                Turn on
              </Button>
              <Button variant="subtle" onClick={() => begin.reset()}>
                Cancel
              </Button>
            </Group>
          </Stack>
        </form>
      )}

      {enabled && (
        <form onSubmit={(event) => void onDisable(event)} noValidate>
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              To remove the app, enter a current code from it.
            </Text>
            <Group align="flex-start" gap="sm" wrap="wrap">
              {codeField}
              <Button type="submit" color="red" variant="light" loading={disable.isPending}>
                Remove authenticator app
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}

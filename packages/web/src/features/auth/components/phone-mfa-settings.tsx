import { MESSAGES, type CurrentUser } from '@fleetdeck/contract';
import { Badge, Button, Group, PasswordInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api-error';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { useUpdateUserSettings } from '../api/user-settings.mutation';
import { successToast } from '../toast';
import { CodeInput } from './code-input';
import { FormAlert } from './form-alert';

/**
 * MFA by text message (access §2 MFA Configurations, §4, §5): the MFA switch (which needs a
 * verified phone), the phone number with its country code, and its verification code.
 */
export function PhoneMfaSettings({ user }: { user: CurrentUser }) {
  const mfa = useUpdateUserSettings();
  const phone = useUpdateUserSettings();
  const verify = useUpdateUserSettings();
  const verifiedPhone = user.phone_number ?? null;
  const pendingPhone = user.pending_phone_number ?? null;
  const [phoneValue, setPhoneValue] = useState(pendingPhone ?? verifiedPhone ?? '');
  const [code, setCode] = useState('');
  const [mfaError, setMfaError] = useState<string | null>(null);
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);
  // Turning MFA off asks for the password (or an authenticator code) first: a step-up check.
  const [confirmingOff, setConfirmingOff] = useState(false);
  const [proof, setProof] = useState('');

  const toggle = (on: boolean) => {
    setMfaError(null);
    if (on && !verifiedPhone) {
      setMfaError(MESSAGES.addPhoneFirst);
      return;
    }
    if (!on) {
      setConfirmingOff(true);
      return;
    }
    mfa.mutate(
      { mfa: true },
      {
        onSuccess: (result) => successToast(result.description),
        onError: (error) => setMfaError(errorMessage(error)),
      },
    );
  };

  const cancelTurningOff = () => {
    setConfirmingOff(false);
    setProof('');
    setMfaError(null);
  };

  const turnOff = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (mfa.isPending) return;
    if (!proof) {
      setMfaError(MESSAGES.mfaOffNeedsProof);
      return;
    }
    // Six digits is an authenticator code: no valid password is digits only.
    const body = /^\d{6}$/.test(proof)
      ? { mfa: false, code: proof }
      : { mfa: false, password: proof };
    mfa.mutate(body, {
      onSuccess: (result) => {
        cancelTurningOff();
        successToast(result.description);
      },
      onError: (error) => setMfaError(errorMessage(error)),
    });
  };

  const savePhone = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (phone.isPending) return;
    const { E164PhoneSchema } = await loadSchemas();
    const parsed = E164PhoneSchema.safeParse(phoneValue);
    if (!parsed.success) {
      setPhoneError(MESSAGES.invalidPhone);
      return;
    }
    setPhoneError(null);
    setMfaError(null);
    phone.mutate(
      { phone_number: parsed.data },
      {
        onSuccess: () => {
          setCode('');
          successToast(MESSAGES.phoneNumberAdded);
        },
        onError: (error) => setPhoneError(errorMessage(error)),
      },
    );
  };

  const verifyPhone = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (verify.isPending) return;
    if (!code.trim()) {
      setCodeError(MESSAGES.enterVerificationCode);
      return;
    }
    const { CodeFormSchema } = await loadSchemas();
    const parsed = CodeFormSchema.safeParse({ code });
    if (!parsed.success) {
      setCodeError(parsed.error.issues[0]?.message ?? MESSAGES.verificationCodeNotValid);
      return;
    }
    setCodeError(null);
    setMfaError(null);
    verify.mutate(
      { verification_code: parsed.data.code },
      {
        onSuccess: () => {
          setCode('');
          successToast(MESSAGES.phoneNumberVerified);
        },
        onError: (error) => setCodeError(errorMessage(error)),
      },
    );
  };

  return (
    <Stack gap="lg">
      <Stack gap={6}>
        <Switch
          label="Multi-factor authentication (MFA)"
          description="Each sign-in also asks for a code texted to your verified phone."
          checked={user.mfa && !confirmingOff}
          disabled={mfa.isPending || confirmingOff}
          onChange={(event) => toggle(event.currentTarget.checked)}
        />
        {confirmingOff && (
          <form onSubmit={turnOff} noValidate>
            <Stack gap="xs">
              <PasswordInput
                label="Password or authenticator code"
                description={MESSAGES.mfaOffNeedsProof}
                autoComplete="current-password"
                value={proof}
                onChange={(event) => {
                  setProof(event.currentTarget.value);
                  setMfaError(null);
                }}
                maw={360}
                data-autofocus
                autoFocus
              />
              <Group gap="sm">
                <Button type="submit" color="red" loading={mfa.isPending}>
                  Turn MFA off
                </Button>
                <Button variant="default" onClick={cancelTurningOff} disabled={mfa.isPending}>
                  Cancel
                </Button>
              </Group>
            </Stack>
          </form>
        )}
        <FormAlert message={mfaError} />
      </Stack>

      <form onSubmit={(event) => void savePhone(event)} noValidate>
        <Stack gap="xs">
          <Group gap="xs" align="center">
            <Text fw={500} size="sm">
              Phone number
            </Text>
            {verifiedPhone && !pendingPhone && (
              <Badge color="green" variant="light" size="sm">
                Verified
              </Badge>
            )}
            {pendingPhone && (
              <Badge color="yellow" variant="light" size="sm">
                Waiting for its code
              </Badge>
            )}
          </Group>
          <Group align="flex-start" gap="sm" wrap="wrap">
            <TextInput
              aria-label="Phone number"
              name="phone_number"
              type="tel"
              autoComplete="tel"
              placeholder="+919876543210"
              description="With the country code, e.g. +91 for India."
              maxLength={16}
              value={phoneValue}
              onChange={(event) => {
                setPhoneValue(event.currentTarget.value.replace(/\s+/g, ''));
                setPhoneError(null);
              }}
              error={phoneError}
              style={{ flex: '1 1 220px' }}
            />
            <Button type="submit" variant="light" loading={phone.isPending}>
              Update phone number
            </Button>
          </Group>
        </Stack>
      </form>

      {pendingPhone && (
        <form onSubmit={(event) => void verifyPhone(event)} noValidate>
          <Stack gap="xs">
            <Text size="sm">
              Enter the code we texted to <strong>{pendingPhone}</strong>.
            </Text>
            <Group align="flex-start" gap="sm" wrap="wrap">
              <CodeInput
                aria-label="Verification code"
                name="phone-code"
                value={code}
                onChange={(event) => {
                  setCode(event.currentTarget.value);
                  setCodeError(null);
                }}
                error={codeError}
                style={{ flex: '1 1 160px' }}
              />
              <Button type="submit" loading={verify.isPending}>
                Verify
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}

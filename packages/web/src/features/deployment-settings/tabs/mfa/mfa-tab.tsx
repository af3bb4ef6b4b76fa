import { Stack, Text } from '@mantine/core';
import { useCurrentUser } from '../../../auth/api/current-user.query';
import { PhoneMfaSettings } from '../../../auth/components/phone-mfa-settings';
import { useSessionUser } from '../../../auth/components/session-user';

/**
 * MFA Configurations (access §2, §4, §5): the signed-in administrator's MFA switch, phone number
 * with country code and its verification code. MFA by text message needs a phone, so it applies
 * to the Email & Phone User Pool; with the Email User Pool the tab says so.
 */
export function MfaTab({ emailMobileUserpool }: { emailMobileUserpool: boolean }) {
  const sessionUser = useSessionUser();
  const user = useCurrentUser().data ?? sessionUser;
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {emailMobileUserpool
          ? 'Turn on a second sign-in step for your account: a code texted to your phone.'
          : 'Phone numbers belong to the Email & Phone User Pool. Settings here apply to your own account.'}
      </Text>
      <PhoneMfaSettings user={user} />
    </Stack>
  );
}

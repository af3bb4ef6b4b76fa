import { LABELS, formatMessage } from '@fleetdeck/contract';
import { Stack, Text } from '@mantine/core';
import { useCurrentUser } from '../../../auth/api/current-user.query';
import { PhoneMfaSettings } from '../../../auth/components/phone-mfa-settings';
import { useSessionUser } from '../../../auth/components/session-user';
import { DEPLOYMENT_LABELS as L } from '../../labels';

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
          ? L.mfaIntro
          : formatMessage(L.mfaNeedsPhonePool, { pool: LABELS.emailPhoneUserPool })}
      </Text>
      <PhoneMfaSettings user={user} />
    </Stack>
  );
}

import { LABELS, MESSAGES, formatMessage } from '@fleetdeck/contract';
import { Alert } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useDeploymentDetails } from '../../api/deployment-details.query';
import type { DeploymentTabProps } from '../../tab-registry';

const poolLabel = (emailMobileUserpool: boolean) =>
  emailMobileUserpool ? LABELS.emailPhoneUserPool : LABELS.emailUserPool;

/**
 * Says so when the chosen pool is not the one sign-ins use (USER_POOL, ADR 12): its identity
 * settings are kept but change nothing until the server runs with that pool. Shown only once the
 * deployment details confirm it, so the active pool never flashes a warning.
 */
export function InactivePoolNotice({ emailMobileUserpool }: DeploymentTabProps) {
  const details = useDeploymentDetails(emailMobileUserpool);
  if (details.data?.active_pool !== false) return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      title={MESSAGES.inactivePoolTitle}
      icon={<IconInfoCircle size={18} aria-hidden="true" />}
      role="note"
      data-testid="inactive-pool-notice"
    >
      {formatMessage(MESSAGES.inactivePoolNotice, {
        pool: poolLabel(emailMobileUserpool),
        active: poolLabel(!emailMobileUserpool),
      })}
    </Alert>
  );
}

import { LABELS } from '@fleetdeck/contract';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** What every tab receives: which user pool's settings the page is showing. */
export interface DeploymentTabProps {
  /** true for the Email & Phone User Pool (the default), false for the Email User Pool. */
  emailMobileUserpool: boolean;
}

export type DeploymentTabId =
  | 'identity-providers'
  | 'email-configurations'
  | 'cognito'
  | 'upgrade-apis'
  | 'privacy-terms'
  | 'deployment-details'
  | 'licensing'
  | 'push-notifications'
  | 'backup-restore'
  | 'mfa';

export interface DeploymentTab {
  id: DeploymentTabId;
  label: string;
  /** Whether the tab's settings belong to the chosen user pool (its calls pass the pool). */
  poolDependent: boolean;
  Component: LazyExoticComponent<ComponentType<DeploymentTabProps>>;
}

/** The spec's side tabs in the spec's order (access §2); each screen loads when first opened. */
const SPEC_ORDER: DeploymentTab[] = [
  {
    id: 'identity-providers',
    label: LABELS.tabIdentityProviders,
    poolDependent: true,
    Component: lazy(async () => ({
      default: (await import('./tabs/identity-providers/identity-providers-tab'))
        .IdentityProvidersTab,
    })),
  },
  {
    id: 'email-configurations',
    label: LABELS.tabEmailConfigurations,
    poolDependent: false,
    Component: lazy(async () => ({
      default: (await import('./tabs/email-configurations/email-configurations-tab'))
        .EmailConfigurationsTab,
    })),
  },
  {
    id: 'cognito',
    label: LABELS.tabCognitoConfigurations,
    poolDependent: true,
    Component: lazy(async () => ({
      default: (await import('./tabs/cognito/cognito-tab')).CognitoTab,
    })),
  },
  {
    id: 'upgrade-apis',
    label: LABELS.tabUpgradeApis,
    poolDependent: false,
    Component: lazy(async () => ({
      default: (await import('./tabs/upgrade-apis/upgrade-apis-tab')).UpgradeApisTab,
    })),
  },
  {
    id: 'privacy-terms',
    label: LABELS.tabPrivacyPolicyAndTerms,
    poolDependent: false,
    Component: lazy(async () => ({
      default: (await import('./tabs/privacy-terms/privacy-terms-tab')).PrivacyTermsTab,
    })),
  },
  {
    id: 'deployment-details',
    label: LABELS.tabDeploymentDetails,
    poolDependent: true,
    Component: lazy(async () => ({
      default: (await import('./tabs/deployment-details/deployment-details-tab'))
        .DeploymentDetailsTab,
    })),
  },
  {
    id: 'licensing',
    label: LABELS.tabLicensingService,
    poolDependent: false,
    Component: lazy(async () => ({
      default: (await import('./tabs/licensing/licensing-tab')).LicensingTab,
    })),
  },
  {
    id: 'push-notifications',
    label: LABELS.tabPushNotifications,
    poolDependent: false,
    Component: lazy(async () => ({
      default: (await import('./tabs/push-notifications/push-notifications-tab'))
        .PushNotificationsTab,
    })),
  },
  {
    id: 'backup-restore',
    label: LABELS.tabBackupRestore,
    poolDependent: true,
    Component: lazy(async () => ({
      default: (await import('./tabs/backup-restore/backup-restore-tab')).BackupRestoreTab,
    })),
  },
  {
    id: 'mfa',
    label: LABELS.tabMfaConfigurations,
    poolDependent: false,
    Component: lazy(async () => ({
      default: (await import('./tabs/mfa/mfa-tab')).MfaTab,
    })),
  },
];

/**
 * The tabs as the page lists them: "Tabs that depend on the user pool are shown after the
 * others" (access §2), each group keeping the spec's order.
 */
export const DEPLOYMENT_TABS: readonly DeploymentTab[] = [
  ...SPEC_ORDER.filter((tab) => !tab.poolDependent),
  ...SPEC_ORDER.filter((tab) => tab.poolDependent),
];

export function isDeploymentTabId(value: string | null): value is DeploymentTabId {
  return DEPLOYMENT_TABS.some((tab) => tab.id === value);
}

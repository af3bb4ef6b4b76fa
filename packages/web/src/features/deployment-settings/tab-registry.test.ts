import { describe, expect, it } from 'vitest';
import { DEPLOYMENT_TABS, isDeploymentTabId } from './tab-registry';

describe('deployment settings tabs', () => {
  it('lists the ten spec tabs, pool-dependent ones after the others', () => {
    expect(DEPLOYMENT_TABS.map((tab) => tab.label)).toEqual([
      'Email Configurations',
      'Upgrade APIs',
      'Privacy Policy and Terms',
      'Licensing Service',
      'Push Notifications',
      'MFA Configurations',
      'Identity Providers',
      'Cognito Configurations',
      'Deployment Details',
      'Backup & Restore',
    ]);
    const firstPoolTab = DEPLOYMENT_TABS.findIndex((tab) => tab.poolDependent);
    expect(DEPLOYMENT_TABS.slice(firstPoolTab).every((tab) => tab.poolDependent)).toBe(true);
  });

  it('recognises tab ids from the URL', () => {
    expect(isDeploymentTabId('push-notifications')).toBe(true);
    expect(isDeploymentTabId('nope')).toBe(false);
    expect(isDeploymentTabId(null)).toBe(false);
  });
});

import type { CurrentUser } from '@fleetdeck/contract';

/** Which Account Settings entries a user gets (access §2; fleet-management §6). */
export function accountMenuEntries(user: Pick<CurrentUser, 'permissions' | 'email_user'>): {
  userRegistration: boolean;
  changePassword: boolean;
} {
  return {
    userRegistration: user.permissions.includes('users.manage'),
    // The spec's "email flag": only e-mail/password accounts have a password to change.
    changePassword: user.email_user,
  };
}

/**
 * Whether /home/deployment-settings/ and /home/alarmalert/ open (access §6): only for a user who
 * has both the customer marker and the admin permission; everyone else goes to change-password.
 */
export function canOpenCustomerAdminRoutes(
  user: Pick<CurrentUser, 'deployment_mode' | 'permissions'>,
): boolean {
  return user.deployment_mode === 'customer' && user.permissions.includes('admin');
}

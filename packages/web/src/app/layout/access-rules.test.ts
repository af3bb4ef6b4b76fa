import { permissionsOf } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import { accountMenuEntries, canOpenCustomerAdminRoutes } from './access-rules';

describe('accountMenuEntries', () => {
  it('offers User Registration only with the users.manage permission', () => {
    expect(
      accountMenuEntries({ permissions: permissionsOf(['super_admin']), email_user: true })
        .userRegistration,
    ).toBe(true);
    expect(
      accountMenuEntries({ permissions: permissionsOf(['admin']), email_user: true })
        .userRegistration,
    ).toBe(false);
  });

  it('offers Change Password only to e-mail users', () => {
    expect(accountMenuEntries({ permissions: [], email_user: true }).changePassword).toBe(true);
    expect(accountMenuEntries({ permissions: [], email_user: false }).changePassword).toBe(false);
  });
});

describe('canOpenCustomerAdminRoutes', () => {
  it('lets in a user with both the customer marker and the admin permission', () => {
    expect(
      canOpenCustomerAdminRoutes({
        deployment_mode: 'customer',
        permissions: permissionsOf(['super_admin']),
      }),
    ).toBe(true);
  });

  it('turns away an admin of a standard deployment', () => {
    expect(
      canOpenCustomerAdminRoutes({
        deployment_mode: 'standard',
        permissions: permissionsOf(['super_admin']),
      }),
    ).toBe(false);
  });

  it('turns away a customer-deployment user without the admin permission', () => {
    expect(
      canOpenCustomerAdminRoutes({
        deployment_mode: 'customer',
        permissions: permissionsOf(['admin']),
      }),
    ).toBe(false);
  });
});

import { MESSAGES } from '@fleetdeck/contract';
import { describe, expect, it } from 'vitest';
import { emptyUserForm, firstError, validateUserForm, type UserFormValues } from './user-form';

const valid: UserFormValues = {
  first_name: 'Asha',
  last_name: 'Rao',
  city: 'Pune',
  phone_number: '9876543210',
  user_name: 'asha@example.com',
  roles: ['service_engineer_role'],
  geo_region: 'Pune',
  registration_date: '2025-03-14',
};

describe('the Add User form', () => {
  it('accepts a complete form and lower-cases the e-mail', () => {
    const result = validateUserForm({ ...valid, user_name: 'Asha@Example.com' });
    expect(result.data?.user_name).toBe('asha@example.com');
  });

  it('reports the first wrong field in the spec order with the spec message', () => {
    const empty = validateUserForm({ ...emptyUserForm(), registration_date: '' });
    expect(empty.errors && firstError(empty.errors)).toBe(MESSAGES.enterFirstName);
    const cases: Array<[Partial<UserFormValues>, string]> = [
      [{ last_name: ' ' }, MESSAGES.enterLastName],
      [{ city: '' }, MESSAGES.enterCity],
      [{ phone_number: '12345' }, MESSAGES.invalidPhone],
      [{ user_name: 'not-an-email' }, MESSAGES.invalidEmailAddress],
      [{ roles: [] }, MESSAGES.selectRole],
      [{ geo_region: '' }, MESSAGES.selectGeoRegion],
      [{ registration_date: '2025-13-01' }, MESSAGES.invalidDate],
    ];
    for (const [change, message] of cases) {
      const result = validateUserForm({ ...valid, ...change });
      expect(result.errors && firstError(result.errors)).toBe(message);
    }
  });
});

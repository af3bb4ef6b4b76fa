import { GEO_REGIONS, NAME_MAX_LENGTH, PHONE_NUMBER_DIGITS } from '@fleetdeck/contract';
import { MultiSelect, Select, SimpleGrid, TextInput } from '@mantine/core';
import { USER_LABELS } from '../labels';
import { ROLE_CHOICES, type UserFormField, type UserFormValues } from '../model/user-form';

/**
 * The Add User fields (fleet-management §2): first name, last name, city, phone, email, role,
 * geo region and registration date. `lockEmail` shows the e-mail read-only (user details).
 */
export function UserFields({
  values,
  errors,
  onChange,
  lockEmail = false,
}: {
  values: UserFormValues;
  errors: Partial<Record<UserFormField, string>>;
  onChange: (next: UserFormValues) => void;
  lockEmail?: boolean;
}) {
  const set = (field: Exclude<UserFormField, 'roles'>) => (value: string) =>
    onChange({ ...values, [field]: value });
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
      <TextInput
        label={USER_LABELS.firstName}
        name="first_name"
        required
        maxLength={NAME_MAX_LENGTH}
        autoComplete="off"
        value={values.first_name}
        error={errors.first_name}
        onChange={(event) => set('first_name')(event.currentTarget.value)}
        data-autofocus
      />
      <TextInput
        label={USER_LABELS.lastName}
        name="last_name"
        required
        maxLength={NAME_MAX_LENGTH}
        autoComplete="off"
        value={values.last_name}
        error={errors.last_name}
        onChange={(event) => set('last_name')(event.currentTarget.value)}
      />
      <TextInput
        label={USER_LABELS.city}
        name="city"
        required
        maxLength={NAME_MAX_LENGTH}
        value={values.city}
        error={errors.city}
        onChange={(event) => set('city')(event.currentTarget.value)}
      />
      <TextInput
        label={USER_LABELS.phoneNumber}
        description={USER_LABELS.phoneHint}
        // The hint under the box, so the box lines up with the City box beside it.
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        name="phone_number"
        required
        inputMode="numeric"
        maxLength={PHONE_NUMBER_DIGITS}
        value={values.phone_number}
        error={errors.phone_number}
        onChange={(event) => set('phone_number')(event.currentTarget.value)}
      />
      <TextInput
        label={USER_LABELS.email}
        name="user_name"
        type="email"
        required
        maxLength={320}
        autoComplete="off"
        readOnly={lockEmail}
        variant={lockEmail ? 'filled' : 'default'}
        value={values.user_name}
        error={errors.user_name}
        onChange={(event) => set('user_name')(event.currentTarget.value)}
      />
      <MultiSelect
        label={USER_LABELS.role}
        name="roles"
        required
        data={ROLE_CHOICES}
        value={values.roles}
        error={errors.roles}
        onChange={(roles) => onChange({ ...values, roles })}
        comboboxProps={{ withinPortal: true }}
        data-testid="role-select"
        searchable
        hidePickedOptions
      />
      <Select
        label={USER_LABELS.geoRegion}
        name="geo_region"
        required
        data={[...GEO_REGIONS]}
        value={values.geo_region || null}
        error={errors.geo_region}
        onChange={(value) => set('geo_region')(value ?? '')}
        allowDeselect={false}
        data-testid="geo-region-select"
        comboboxProps={{ withinPortal: true }}
      />
      <TextInput
        label={USER_LABELS.registrationDate}
        name="registration_date"
        type="date"
        required
        value={values.registration_date}
        error={errors.registration_date}
        onChange={(event) => set('registration_date')(event.currentTarget.value)}
      />
    </SimpleGrid>
  );
}

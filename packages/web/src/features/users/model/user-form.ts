import { AddUserFormSchema, ASSIGNABLE_ROLES, ROLE_LABELS, isRole } from '@fleetdeck/contract';
import { collectFormErrors, type FormErrors } from '../../../lib/form-errors';

/** The Add User / user details form as typed (every field a string, roles a list). */
export interface UserFormValues {
  first_name: string;
  last_name: string;
  city: string;
  phone_number: string;
  user_name: string;
  roles: string[];
  geo_region: string;
  registration_date: string;
}

export const USER_FORM_FIELDS = [
  'first_name',
  'last_name',
  'city',
  'phone_number',
  'user_name',
  'roles',
  'geo_region',
  'registration_date',
] as const;
export type UserFormField = (typeof USER_FORM_FIELDS)[number];

/** Today as YYYY-MM-DD in the browser's time zone (the date input's default). */
export function today(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export const emptyUserForm = (): UserFormValues => ({
  first_name: '',
  last_name: '',
  city: '',
  phone_number: '',
  user_name: '',
  roles: [],
  geo_region: '',
  registration_date: today(),
});

/** Checks the form with the contract's Add User schema (spec messages, in the spec's order). */
export function validateUserForm(values: UserFormValues) {
  const parsed = AddUserFormSchema.safeParse({
    ...values,
    geo_region: values.geo_region || undefined,
  });
  if (parsed.success) return { data: parsed.data, errors: null };
  return {
    data: null,
    errors: collectFormErrors<UserFormField>(parsed.error, USER_FORM_FIELDS),
  };
}

/** The first message of a failed check: the field the spec's order reaches first. */
export function firstError(errors: FormErrors<UserFormField>): string | null {
  for (const field of USER_FORM_FIELDS) {
    const message = errors.fields[field];
    if (message) return message;
  }
  return errors.form;
}

/** A role's label (Mfg Eng, Mfg Manger, Service Engg, Service Manager…), else the raw name. */
export function roleLabel(role: string): string {
  return isRole(role) ? ROLE_LABELS[role] : role;
}

/** The four roles the Add User modal offers, with their spec labels. */
export const ROLE_CHOICES = ASSIGNABLE_ROLES.map((entry) => ({
  value: entry.role,
  label: entry.label,
}));

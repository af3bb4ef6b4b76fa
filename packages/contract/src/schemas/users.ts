import { z } from 'zod';
import {
  GEO_REGIONS,
  INPUT_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PHONE_NUMBER_DIGITS,
  SEARCH_MAX_LENGTH,
  VERIFICATION_CODE_LENGTH,
} from '../constants.js';
import { MESSAGES } from '../messages.js';
import { ASSIGNABLE_ROLES, ROLES } from '../roles.js';
import { NewPasswordSchema } from './auth.js';

/** The Add User roles, in the spec's order (fleet-management §6). */
export const ASSIGNABLE_ROLE_NAMES = ASSIGNABLE_ROLES.map((entry) => entry.role);

/** A user's e-mail as the admin screens take it: the valid-email rule (fleet-management §5). */
export const UserEmailSchema = z
  .string({ error: MESSAGES.invalidEmailAddress })
  .trim()
  .min(1, { error: MESSAGES.invalidEmailAddress })
  .max(320, { error: MESSAGES.invalidEmailAddress })
  .pipe(z.email({ error: MESSAGES.invalidEmailAddress }))
  .transform((value) => value.toLowerCase());

/** A required profile text: trimmed, non-blank, at most 64 characters. */
const profileText = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(NAME_MAX_LENGTH, { error: `${message} (at most ${NAME_MAX_LENGTH} characters)` });

/** Exactly 10 digits (fleet-management §9). */
export const PhoneNumberSchema = z
  .string({ error: MESSAGES.invalidPhone })
  .trim()
  .regex(new RegExp(`^\\d{${PHONE_NUMBER_DIGITS}}$`), { error: MESSAGES.invalidPhone });

/** One of the spec's geo regions (fleet-management §9). */
export const GeoRegionSchema = z.enum(GEO_REGIONS, { error: MESSAGES.selectGeoRegion });

/** Whether `value` is a real calendar date written YYYY-MM-DD. */
export function isIsoDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

/** A registration date, YYYY-MM-DD (the date input's format). */
export const RegistrationDateSchema = z
  .string({ error: MESSAGES.invalidDate })
  .trim()
  .refine(isIsoDate, { error: MESSAGES.invalidDate });

/** Roles an admin may give; at least one ('Please select his role'). */
export const UserRolesSchema = z
  .array(z.enum(ROLES, { error: MESSAGES.selectRole }), { error: MESSAGES.selectRole })
  .min(1, { error: MESSAGES.selectRole })
  .max(ROLES.length, { error: MESSAGES.selectRole })
  .transform((roles) => [...new Set(roles)]);

/** The Add User / user details profile fields (fleet-management §2, §3 User). */
export const UserProfileSchema = z.object({
  first_name: profileText(MESSAGES.enterFirstName),
  last_name: profileText(MESSAGES.enterLastName),
  city: profileText(MESSAGES.enterCity),
  phone_number: PhoneNumberSchema,
  geo_region: GeoRegionSchema,
  registration_date: RegistrationDateSchema,
});
export type UserProfile = z.infer<typeof UserProfileSchema>;

/**
 * POST /v1/admin/user2. E-mail and roles are required (access §5: "Creating a user requires email
 * and role"); each profile field is optional for API clients but, when sent, must pass the Add
 * User rule with its spec message. Without `password` the account gets an invitation e-mail and
 * its owner sets a password from it; API clients (tests, the simulator) may still set one.
 */
export const CreateUserBodySchema = z.object({
  first_name: UserProfileSchema.shape.first_name.optional(),
  last_name: UserProfileSchema.shape.last_name.optional(),
  city: UserProfileSchema.shape.city.optional(),
  phone_number: PhoneNumberSchema.optional(),
  user_name: UserEmailSchema,
  roles: UserRolesSchema,
  geo_region: GeoRegionSchema.optional(),
  registration_date: RegistrationDateSchema.optional(),
  password: NewPasswordSchema.optional(),
});
export type CreateUserBody = z.infer<typeof CreateUserBodySchema>;

/** 201 of POST /v1/admin/user2. */
export const CreateUserResponseSchema = z.object({
  status: z.literal('success'),
  description: z.string(),
  user_id: z.string(),
  /** Whether an invitation e-mail went out (false when a password was given). */
  invited: z.boolean().optional(),
});
export type CreateUserResponse = z.infer<typeof CreateUserResponseSchema>;

/**
 * The Add User modal: every field required, checked in the spec's order, so the first message
 * shown is the first field that is wrong (fleet-management §5).
 */
export const AddUserFormSchema = z.object({
  first_name: UserProfileSchema.shape.first_name,
  last_name: UserProfileSchema.shape.last_name,
  city: UserProfileSchema.shape.city,
  phone_number: PhoneNumberSchema,
  user_name: UserEmailSchema,
  roles: UserRolesSchema,
  geo_region: GeoRegionSchema,
  registration_date: RegistrationDateSchema,
});
export type AddUserForm = z.infer<typeof AddUserFormSchema>;

/** PUT /v1/admin/user2?user_name=: profile fields and roles to change (any subset). */
export const UpdateUserBodySchema = z.object({
  first_name: UserProfileSchema.shape.first_name.optional(),
  last_name: UserProfileSchema.shape.last_name.optional(),
  city: UserProfileSchema.shape.city.optional(),
  phone_number: PhoneNumberSchema.optional(),
  geo_region: GeoRegionSchema.optional(),
  registration_date: RegistrationDateSchema.optional(),
  roles: UserRolesSchema.optional(),
});
export type UpdateUserBody = z.infer<typeof UpdateUserBodySchema>;

/** `?user_name=` of PUT and the delete steps. */
export const UserNameQuerySchema = z.object({ user_name: UserEmailSchema });

/** GET /v1/admin/user2 query (rainmaker-contract A.3). */
export const UserListQuerySchema = z.object({
  user_name: z
    .string()
    .trim()
    .max(320)
    .optional()
    .transform((value) => (value ? value.toLowerCase() : undefined)),
  start_id: z.string().trim().max(SEARCH_MAX_LENGTH).optional(),
  num_records: z.coerce.number({ error: 'Invalid query param' }).int().min(1).max(100).default(25),
  /** Everyone (`true`), or only staff accounts (default; end users are left out). */
  all: z.enum(['true', 'false']).optional(),
});
export type UserListQuery = z.infer<typeof UserListQuerySchema>;

/** One custom-data entry: `{value}` (rainmaker-contract A.8). */
export const CustomDataEntrySchema = z.object({ value: z.unknown() });

/** A user's custom data: key → {value}. The dashboard keeps the profile under `personal`. */
export const CustomDataMapSchema = z.record(z.string(), CustomDataEntrySchema);
export type CustomDataMap = z.infer<typeof CustomDataMapSchema>;

/** Custom-data keys: 1–64 letters, digits, `_`, `-` or `.`. */
export const CUSTOM_DATA_KEY_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
/** The serialised custom data of one user may not exceed this many bytes. */
export const CUSTOM_DATA_MAX_BYTES = 16 * 1024;

/** PUT /v1/admin/custom_data body: key → {value}; `value: null` (or a null entry) deletes. */
export const CustomDataUpdateSchema = z.record(
  z.string(),
  z.object({ value: z.unknown() }).nullable(),
);
export type CustomDataUpdate = z.infer<typeof CustomDataUpdateSchema>;

/** `?user_email=` (or `user_name`, `user_id`) of admin/custom_data. */
export const CustomDataQuerySchema = z.object({
  user_email: z.string().trim().max(320).optional(),
  user_name: z.string().trim().max(320).optional(),
  user_id: z.string().trim().max(64).optional(),
});
export type CustomDataQuery = z.infer<typeof CustomDataQuerySchema>;

/** One user as the list and the details show it (fleet-management §3 User). */
export const AdminUserSchema = z.object({
  user_id: z.string(),
  user_name: z.string(),
  user_role: z.array(z.string()),
  super_admin: z.boolean(),
  first_name: z.string(),
  last_name: z.string(),
  city: z.string(),
  phone_number: z.string(),
  geo_region: z.string(),
  registration_date: z.string(),
  /** Whether the owner has set a password yet (false until the invitation is used). */
  password_set: z.boolean(),
  custom_data: CustomDataMapSchema,
  created_at: z.number().int(),
});
export type AdminUser = z.infer<typeof AdminUserSchema>;

/** GET /v1/admin/user2 answer. */
export const UserListSchema = z.object({
  users_list: z.array(AdminUserSchema),
  total: z.number().int(),
  next_id: z.string().optional(),
});
export type UserList = z.infer<typeof UserListSchema>;

/** DELETE /v1/admin/user2: `request=true` mails a code to the caller; then the code deletes. */
export const DeleteUserQuerySchema = z.object({
  user_name: UserEmailSchema,
  request: z.enum(['true', 'false']).optional(),
  verification_code: z.string().trim().max(16).optional(),
});
export type DeleteUserQuery = z.infer<typeof DeleteUserQuerySchema>;

/** The delete modal's code: 6 digits, required ('enter verification code!'). */
export const DeleteCodeFormSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, { error: MESSAGES.enterVerificationCodeAlert })
    .regex(new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`), {
      error: MESSAGES.verificationCodeNotValid,
    }),
});

/** Client-side search of the user list (max 64, whitespace-only ignored). */
export const UserSearchSchema = z.string().max(INPUT_MAX_LENGTH);

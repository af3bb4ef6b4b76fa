/**
 * The contract schemas the web app validates with. Only ever imported through loadSchemas(), so
 * that zod lands in its own chunk (see lazy-schemas.ts).
 */
export {
  AdminNodesListSchema,
  CreateGroupResponseSchema,
  CurrentUserSchema,
  DeploymentInfoSchema,
  GroupListSchema,
  GroupMatchCountSchema,
  LoginFormSchema,
  LoginResponseSchema,
  NodeConnectivityEventSchema,
  PasswordChangeFormSchema,
  SocialMfaStepSchema,
  SuccessBodySchema,
  UserNodesListSchema,
} from '@fleetdeck/contract';
/** The public policy pages (features/policies). */
export { TermsLinksSchema } from '@fleetdeck/contract';
/** The OTA job screens (features/ota). */
export {
  JobListSchema,
  JobStatusListSchema,
  JobSummarySchema,
  OtaJobEventSchema,
} from '@fleetdeck/contract';
/** The firmware and fault image screens (features/firmware). */
export {
  CreateImageResponseSchema,
  CreateJobBodySchema,
  CreateJobResponseSchema,
  ImageFieldsSchema,
  ImageListSchema,
  PackageUploadResponseSchema,
} from '@fleetdeck/contract';
/** Deployment Settings, identity side (features/deployment-settings: identity, cognito, backup, details). */
export {
  AppClientBackupSchema,
  AppClientListSchema,
  CognitoDomainSchema,
  DeploymentDetailsSchema,
  IdentityProviderListSchema,
} from '@fleetdeck/contract';
/** Sign-up, verification, password recovery, MFA and own settings (features/auth). */
export {
  CodeFormSchema,
  E164PhoneSchema,
  ForgotPasswordFormSchema,
  LoginAnswerSchema,
  NewPasswordFormSchema,
  SignUpFormSchema,
  TotpBeginResponseSchema,
  TotpConfirmResponseSchema,
} from '@fleetdeck/contract';

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
  SuccessBodySchema,
  UserNodesListSchema,
} from '@fleetdeck/contract';
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

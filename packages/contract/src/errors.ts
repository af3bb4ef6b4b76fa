/**
 * Stable numeric error codes (RainMaker families, `reference/rainmaker-contract.md` A.1 and
 * appendix 1) and the server's own failure texts where the spec quotes none.
 */
export const ERROR_CODES = {
  internal: 100001,
  apiVersionUnsupported: 100002,
  methodNotAllowed: 100003,
  forbidden: 100004,
  invalidRequestBody: 100006,
  invalidQueryParam: 100021,
  notFound: 100015,
  payloadTooLarge: 100036,
  accessTokenMissing: 100046,
  loggedOut: 100047,
  tooManyRequests: 100070,
  incorrectCredentials: 101009,
  currentPasswordWrong: 101007,
  passwordPolicy: 101004,
  refreshFailed: 101017,
  attemptLimit: 101019,
  csrfMissing: 100012,
  /** Registration of a node id that exists already (answered with 409). */
  nodeAlreadyRegistered: 105050,
  otaImageInvalid: 104002,
  otaImageNotFound: 104015,
  otaImageInUse: 104020,
  otaImageArchived: 104018,
  otaJobInvalid: 105001,
  otaJobNotFound: 105015,
  otaJobState: 105014,
  otaNoTargets: 105009,
  uploadInvalid: 112001,
  /** common_custom_data: the name does not exist / a fault catalogue cannot be deleted. */
  customDataNameNotFound: 115004,
  customDataInvalid: 115001,
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** Failure texts of the server that the spec does not quote. */
export const SERVER_MESSAGES = {
  internal: 'Internal server error',
  invalidRequestBody: 'Invalid request body',
  invalidQueryParam: 'Invalid query param',
  notFound: 'Not found',
  routeNotFound: 'Route not found',
  forbidden: 'You are not authorized to perform this operation',
  tooManyRequests: 'Too many requests, try again later',
  incorrectCredentials: 'Incorrect user name or password',
  currentPasswordWrong: 'The password you entered is incorrect',
  passwordTooCommon: 'This password is too common. Please choose a different one.',
  passwordSameAsOld: 'The new password must be different from the current one.',
  refreshFailed: 'Refresh token failed',
  loggedOut: 'You were logged out, please login again',
  csrfMissing: 'Invalid Request: a cookie-authenticated write needs the X-Fleetdeck-CSRF header',
  crossOrigin: 'Invalid Request: cross-origin writes are not allowed',
  loginSuccessful: 'Login successful',
  logoutSuccessful: 'Logged out successfully',
  payloadTooLarge: 'Error, input size is too large',
  groupNameRequired: 'Please provide group name.',
  groupNameTooLong: 'Group name can have at most 64 characters.',
  groupDescriptionTooLong: 'Description can have at most 500 characters.',
  // Images and OTA jobs (the spec quotes no text for these).
  idMissing: 'Id is missing',
  fieldTooLong: 'Name, type, version and model can have at most 64 characters.',
  searchTooLong: 'Search can have at most 64 characters.',
  invalidFileName: 'Please provide a valid file name.',
  invalidFileType: 'Only .bin or .zip files can be uploaded.',
  invalidZip: 'The file is not a valid .zip package.',
  invalidBase64: 'The firmware image is not valid base64.',
  emptyImage: 'The firmware image is empty.',
  imageTooLarge: 'The firmware image is larger than the allowed size.',
  imageNotFound: 'OTA image does not exist',
  imageInUse: 'The image is used by an active OTA job. Cancel the job before deleting the image.',
  imageArchived: 'The image is archived. Unarchive it before starting an OTA job.',
  uploadNotFound: 'No uploaded file at this file_path. Upload the file first.',
  uploadUrlInvalid: 'The upload URL is invalid or has expired.',
  downloadUrlInvalid: 'The download URL is invalid or has expired.',
  jobNotFound: 'OTA job does not exist',
  jobNotCancelled: 'Only a cancelled job can be archived.',
  jobAlreadyCancelled: 'The job is already cancelled.',
  jobAlreadyFinished: 'The job has finished; there is nothing to cancel.',
  groupsNotFound: 'These groups do not exist: {groups}',
  notAFaultImage: 'This image is not a fault image, so it has no fault to target.',
  nodesNotFound: 'These nodes do not exist: {nodes}',
  imageDeleted: 'Firmware image deleted successfully.',
  imageArchivedDone: 'Firmware image archived successfully.',
  imageUnarchivedDone: 'Firmware image unarchived successfully.',
  // common_custom_data (rainmaker-contract A.8).
  customDataNameNotFound: "Name doesn't exist",
  customDataSaved: 'Common custom data updated successfully.',
  customDataDeleted: 'Common custom data deleted successfully.',
  faultCatalogueNotDeletable: 'A fault catalogue cannot be deleted; save an edited one instead.',
  customDataTooLarge: 'Request body exceeds maximum allowed limit',
  // Statistics (RainMaker's texts where the spec quotes none).
  statsInvalidMetrics: 'Error, Please provide valid metrics list separated by comma',
  statsInvalidTimezone: 'Error, Please specify the timezone parameter correctly',
  statsMonthlyLimit: 'Monthly data can be retrieved for 1 to 24 months',
  statsYearlyLimit: 'Yearly data can be retrieved for 1 to 5 years',
} as const;

/** The failure body every 4xx/5xx answer carries. */
export interface FailureBody {
  status: 'failure';
  description: string;
  error_code: number;
}

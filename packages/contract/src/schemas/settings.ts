import { z } from 'zod';

/**
 * Deployment settings, operations side (access §2 Deployment Settings, §7): Upgrade APIs, Privacy
 * Policy and Terms, Licensing Service and the dashboard update check. Shapes follow RainMaker's
 * super-admin API (`reference/rainmaker-contract.md` A.8).
 */

/** Error codes of these settings (RainMaker families 110xxx, 116xxx, 121xxx). */
export const SETTINGS_ERROR_CODES = {
  dashboardVersionInvalid: 110001,
  termsNothingGiven: 116001,
  termsFileNotFound: 116006,
  termsInvalidFile: 116007,
  licenseMissing: 121001,
  licenseInvalid: 121002,
} as const;

/** Failure and success texts of the server for these settings (the spec quotes none). */
export const SETTINGS_MESSAGES = {
  upgradeDone:
    'Applied {count} migration(s){names}; configuration generation {generation}; reloaded: {reloaded}.',
  upgradeNothingReloaded: 'nothing cached',
  termsNothingGiven: 'Either Terms of Use or Privacy Policy should be specified',
  termsFileNotFound: 'File not found',
  termsInvalidFile:
    'Invalid file name specified. Valid values are terms_of_use and privacy_policy.',
  termsTooLarge: 'The document can have at most 200,000 characters.',
  termsSaved: 'Terms and policy files updated',
  termsDeleted: 'File deleted',
  licenseMissing: 'Base64 license file is missing',
  licenseNotBase64: 'The license file is not valid base64.',
  licenseNotPem:
    'The license file is not a valid PEM file: it must contain a -----BEGIN …----- line, base64 content and the matching -----END …----- line.',
  licenseBadCertificate:
    'The license file holds a CERTIFICATE block that is not a valid X.509 certificate.',
  licenseTooLarge: 'The license file can be at most 64 KB.',
  licenseUploaded: 'License file uploaded',
  dashboardVersionInvalid: 'Dashboard version is invalid',
  dashboardUpdated: 'Dashboard updated to version {version}',
} as const;

/** The longest Privacy Policy or Terms of Use document accepted, in characters. */
export const TERMS_MAX_CHARS = 200_000;
/** The largest licence file accepted, in bytes (decoded). */
export const LICENSE_MAX_BYTES = 64 * 1024;

/** `PUT /v1/admin/update_apigateway` → what was done. */
export const UpgradeApisResponseSchema = z.object({
  status: z.literal('success'),
  description: z.string(),
  applied_migrations: z.array(z.string()),
  config_generation: z.number().int(),
  /** The configuration caches this instance reloaded (a failed reload is left out and logged). */
  reloaded: z.array(z.string()),
});
export type UpgradeApisResponse = z.infer<typeof UpgradeApisResponseSchema>;

/** The two documents of Privacy Policy and Terms. */
export const TERMS_FILES = ['privacy_policy', 'terms_of_use'] as const;
export const TermsFileSchema = z.enum(TERMS_FILES, { error: SETTINGS_MESSAGES.termsInvalidFile });
export type TermsFile = z.infer<typeof TermsFileSchema>;

const termsText = z.string().max(TERMS_MAX_CHARS, { error: SETTINGS_MESSAGES.termsTooLarge });

/** `PUT /v1/admin/terms_policy`: either document or both, as HTML or plain text. */
export const TermsPolicyBodySchema = z
  .object({ privacy_policy: termsText.optional(), terms_of_use: termsText.optional() })
  .refine((body) => body.privacy_policy !== undefined || body.terms_of_use !== undefined, {
    error: SETTINGS_MESSAGES.termsNothingGiven,
  });
export type TermsPolicyBody = z.infer<typeof TermsPolicyBodySchema>;

/** The public URLs of the documents after a save (empty string when there is none). */
export const TermsPolicyPutResponseSchema = z.object({
  status: z.literal('success'),
  description: z.string(),
  privacy_policy_file_url: z.string(),
  terms_of_use_file_url: z.string(),
});
export type TermsPolicyPutResponse = z.infer<typeof TermsPolicyPutResponseSchema>;

/** One document: its text and public URL (both empty when none is stored). */
export const TermsDocumentSchema = z.object({ content: z.string(), file_url: z.string() });
export type TermsDocument = z.infer<typeof TermsDocumentSchema>;

/** `GET /v1/admin/terms_policy[?file=]`. */
export const TermsPolicySchema = z.object({
  privacy_policy: TermsDocumentSchema.optional(),
  terms_of_use: TermsDocumentSchema.optional(),
});
export type TermsPolicy = z.infer<typeof TermsPolicySchema>;

export const TermsPolicyQuerySchema = z.object({ file: TermsFileSchema.optional() });
export const TermsPolicyDeleteQuerySchema = z.object({ file: TermsFileSchema });

/** How a stored document is served and shown: HTML (it has a tag) or plain text. */
export const TERMS_FORMATS = ['html', 'text'] as const;
export type TermsFormat = (typeof TERMS_FORMATS)[number];

/** One published document as the public pages show it. */
export const PublicTermsDocumentSchema = z.object({
  file: TermsFileSchema,
  content: z.string(),
  /** The sandboxed public file (`GET /v1/terms_policy/<file>`). */
  file_url: z.string(),
  format: z.enum(TERMS_FORMATS),
});
export type PublicTermsDocument = z.infer<typeof PublicTermsDocumentSchema>;

/** `GET /v1/terms_policy[?file=]` (public): `file` asks for that document's content too. */
export const TermsPublicQuerySchema = z.object({ file: TermsFileSchema.optional() });
export type TermsPublicQuery = z.infer<typeof TermsPublicQuerySchema>;

/**
 * `GET /v1/terms_policy` (public): the links to the stored documents (null when none), and, when
 * `?file=` asked for one, that document (null when it has not been published).
 */
export const TermsLinksSchema = z.object({
  privacy_policy_file_url: z.string().nullable(),
  terms_of_use_file_url: z.string().nullable(),
  document: PublicTermsDocumentSchema.nullable().optional(),
});
export type TermsLinks = z.infer<typeof TermsLinksSchema>;

/** `PUT /v1/admin/license_file`: the .pem file, base64-encoded. */
export const LicenseUploadBodySchema = z.object({
  file_content_b64: z
    .string({ error: SETTINGS_MESSAGES.licenseMissing })
    .min(1, { error: SETTINGS_MESSAGES.licenseMissing })
    .max(Math.ceil((LICENSE_MAX_BYTES * 4) / 3) + 4, { error: SETTINGS_MESSAGES.licenseTooLarge }),
  /** The uploaded file's name (the screen sends it); `license.pem` when absent. */
  file_name: z
    .string()
    .max(128)
    // No path separators or control characters, then `.pem`.
    .refine(
      (name) => /^[^/\\]{1,124}\.pem$/i.test(name) && ![...name].some((c) => c.charCodeAt(0) < 32),
      { error: 'The license file name must end in .pem' },
    )
    .optional(),
});
export type LicenseUploadBody = z.infer<typeof LicenseUploadBodySchema>;

/** What the server read from the licence file. */
export const LicenseDetailsSchema = z.object({
  /** The PEM block label, e.g. CERTIFICATE or PUBLIC KEY. */
  pem_type: z.string(),
  subject: z.string().optional(),
  issuer: z.string().optional(),
  valid_from: z.string().optional(),
  valid_to: z.string().optional(),
  fingerprint_sha256: z.string().optional(),
});
export type LicenseDetails = z.infer<typeof LicenseDetailsSchema>;

export const LicenseFileSchema = z.object({
  file_name: z.string(),
  /** Epoch seconds of the upload. */
  date_modified: z.number().int(),
  details: LicenseDetailsSchema.optional(),
});
export type LicenseFile = z.infer<typeof LicenseFileSchema>;

/** `GET /v1/admin/license_file`: the current licence (an empty list when none is uploaded). */
export const LicenseFilesSchema = z.object({
  status: z.literal('success'),
  license_files: z.array(LicenseFileSchema),
});
export type LicenseFiles = z.infer<typeof LicenseFilesSchema>;

/** Build versions of the dashboard: `<package version>+<build stamp>`, or `dev`. */
const versionText = z
  .string()
  .min(1, { error: SETTINGS_MESSAGES.dashboardVersionInvalid })
  .max(128, { error: SETTINGS_MESSAGES.dashboardVersionInvalid });

export const DashboardUpdateQuerySchema = z.object({ current_version: versionText });

/**
 * `GET /v1/admin/dashboard/update`: the web build the server serves now and whether the open tab
 * (current_version) differs from it; `unknown` when the server has no built dashboard.
 */
export const DASHBOARD_UPDATE_STATUSES = ['update_available', 'up_to_date', 'unknown'] as const;
export const DashboardUpdateCheckSchema = z.object({
  version: z.string(),
  status: z.enum(DASHBOARD_UPDATE_STATUSES),
});
export type DashboardUpdateCheck = z.infer<typeof DashboardUpdateCheckSchema>;

export const DashboardUpdateBodySchema = z.object({ version: versionText });
export type DashboardUpdateBody = z.infer<typeof DashboardUpdateBodySchema>;

/** The file the web build writes next to index.html. */
export const WebBuildVersionSchema = z.object({ version: z.string().min(1) });
export const WEB_BUILD_VERSION_FILE = 'version.json';

/** API paths of these settings. */
export const SETTINGS_PATHS = {
  updateApigateway: '/v1/admin/update_apigateway',
  termsPolicy: '/v1/admin/terms_policy',
  /** Public: the links and, with `?file=`, a document's content; `/<file>` serves the file. */
  termsLinks: '/v1/terms_policy',
  licenseFile: '/v1/admin/license_file',
  dashboardUpdate: '/v1/admin/dashboard/update',
} as const;

import path from 'node:path';
import { z } from 'zod';
import {
  DEPLOYMENT_MODES,
  SESSION_REFRESH_BUFFER_SECONDS,
  SESSION_TIMEOUT_SECONDS,
} from '@fleetdeck/contract';

/** What Redis keys and channels start with unless REDIS_KEY_PREFIX says otherwise. */
export const DEFAULT_REDIS_KEY_PREFIX = 'fleetdeck:';

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : undefined));

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: port(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  PUBLIC_URL: optionalText.pipe(z.url().optional()),
  MQTT_PORT: port(1883),
  MQTT_URL: optionalText.pipe(
    z
      .string()
      .regex(/^(mqtts?|wss?):\/\//, 'must be an mqtt://, mqtts://, ws:// or wss:// URL')
      .optional(),
  ),
  REDIS_URL: optionalText.pipe(
    z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
      .optional(),
  ),
  REDIS_KEY_PREFIX: optionalText.pipe(
    z
      .string()
      .regex(/^[\w.:-]{1,64}$/, 'must be 1–64 letters, digits or . _ : -')
      .optional(),
  ),
  MQTT_SESSION_EXPIRY_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .default(0),
  FLEETDECK_ADMIN_EMAIL: optionalText,
  FLEETDECK_ADMIN_PASSWORD: optionalText,
  DEPLOYMENT_MODE: z.enum(DEPLOYMENT_MODES).default('standard'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(SESSION_REFRESH_BUFFER_SECONDS + 10)
    .max(24 * 3600)
    .default(SESSION_TIMEOUT_SECONDS),
  WEB_DIST_DIR: optionalText,
  OTA_IMAGE_MAX_MB: z.coerce.number().int().min(1).max(2048).default(32),
  DIAG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  // On unless turned off: nodes send diagnostics reports, so the links have something to show.
  DIAGNOSTICS_LINKS: optionalText
    .pipe(
      z
        .string()
        .toLowerCase()
        .pipe(z.enum(['on', 'off', 'true', 'false'], { error: 'must be on, off, true or false' }))
        .optional(),
    )
    .transform((value) => value !== 'off' && value !== 'false'),
  USER_POOL: z.enum(['email_mobile', 'email']).default('email_mobile'),
  REGION: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]{1,32}$/, 'must be a short region name such as eu-west-1 or on-prem')
    .default('self-hosted'),
  SMTP_URL: optionalText.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL (user:password@host:port)')
      .optional(),
  ),
  MAIL_FROM: optionalText,
  MAIL_SENDS_PER_HOUR: z.coerce.number().int().min(1).max(10000).default(10),
  PUSH_FCM_API_URL: z.url().default('https://fcm.googleapis.com'),
  PUSH_FCM_TOKEN_URL: z.url().default('https://oauth2.googleapis.com/token'),
  PUSH_APNS_URL: z.url().default('https://api.push.apple.com'),
  PUSH_APNS_SANDBOX_URL: z.url().default('https://api.sandbox.push.apple.com'),
  PUSH_CA_FILE: optionalText,
  CONFIG_POLL_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  S3_ENDPOINT: optionalText.pipe(
    z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  ),
  S3_REGION: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]+$/, 'must be a region name such as us-east-1')
    .default('us-east-1'),
  S3_BUCKET: optionalText.pipe(
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name')
      .optional(),
  ),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: optionalText.pipe(z.enum(['true', 'false']).optional()),
  S3_PREFIX: optionalText.pipe(
    z
      .string()
      .transform((value) => value.replace(/^\/+|\/+$/g, ''))
      .pipe(
        z
          .string()
          .regex(
            /^([A-Za-z0-9_-][A-Za-z0-9._-]*)(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/,
            'must be path segments of letters, digits, ".", "_" and "-"',
          )
          .max(100),
      )
      .optional(),
  ),
});

/** The S3-compatible blob store that S3_BUCKET selects (else blobs stay under DATA_DIR). */
export interface S3Config {
  bucket: string;
  region: string;
  endpoint: string | undefined;
  forcePathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
  prefix: string | undefined;
}

/** The parsed, typed configuration of one server process. */
export interface AppConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  /** Whether PUBLIC_URL was given (instances behind one load balancer must share it). */
  publicUrlSet: boolean;
  /** Whether cookies carry `Secure` (the public URL is https). */
  secureCookies: boolean;
  mqttPort: number;
  mqttUrl: string | undefined;
  /**
   * Redis shared by several instances: sign-in and request limits and the dashboards' live updates
   * (ADR 38). Unset: both stay in this process.
   */
  redisUrl: string | undefined;
  /**
   * What every Redis key and channel of this deployment starts with: instances that work together
   * share it; another deployment (or a test run) on the same Redis picks its own.
   */
  redisKeyPrefix: string;
  /**
   * How long an external broker keeps Fleetdeck's session (subscriptions and queued messages)
   * while Fleetdeck is away, when it has a stable client id (a user name); 0 (the default) starts
   * clean every time. For one instance: with several, a stopped instance's kept session would
   * take its share of the shared subscription's messages until it returns.
   */
  mqttSessionExpirySeconds: number;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  deploymentMode: (typeof DEPLOYMENT_MODES)[number];
  logLevel: string;
  accessTokenTtlSeconds: number;
  webDistDir: string;
  trustProxy: boolean;
  /** The largest firmware image (or package) accepted, in bytes. */
  otaImageMaxBytes: number;
  /** Days diagnostics (logs, metric points, variable values) are kept. */
  diagnosticsRetentionDays: number;
  /**
   * The diagnostics option (access §2, §6): whether the dashboard links device ids to their
   * diagnostics report for everyone (a browser's Diag cookie 'true' turns the links on for it alone).
   */
  diagnosticsLinks: boolean;
  /** The user pool sign-ins use: its identity providers, app client and domain (ADR 12). */
  userPool: 'email_mobile' | 'email';
  /** A label for where this deployment runs, shown in Deployment Details. */
  region: string;
  /** Firmware and files in an S3-compatible bucket; undefined keeps them on local disk. */
  s3: S3Config | undefined;
  /** Outgoing mail: SMTP when a URL is set, else only the outbox table and a log line. */
  mail: { smtpUrl: string | undefined; from: string; sendsPerHour: number };
  /** Push senders' endpoints (tests point them at local stand-ins) and extra trusted CAs. */
  push: {
    fcmApiUrl: string;
    fcmTokenUrl: string;
    apnsUrl: string;
    apnsSandboxUrl: string;
    caFile: string | undefined;
  };
  /** How often each instance checks whether configuration changed elsewhere (0: never). */
  configPollSeconds: number;
}

/** A configuration error listing every bad variable. */
export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const defaultWebDist = path.resolve(import.meta.dirname, '../../../web/dist');

/** Parses the environment once at start-up; nothing else reads `process.env`. */
export function parseConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = EnvSchema.safeParse(env);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map(
        (issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`,
      );
  // Checked on the raw values so these join the schema's problems in one list.
  if (env.S3_BUCKET?.trim()) {
    for (const name of ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const)
      if (!env[name]?.trim()) problems.push(`${name}: required when S3_BUCKET is set`);
  }
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    publicUrl,
    publicUrlSet: e.PUBLIC_URL !== undefined,
    secureCookies: publicUrl.startsWith('https://'),
    mqttPort: e.MQTT_PORT,
    mqttUrl: e.MQTT_URL,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX ?? DEFAULT_REDIS_KEY_PREFIX,
    mqttSessionExpirySeconds: e.MQTT_SESSION_EXPIRY_SECONDS,
    adminEmail: e.FLEETDECK_ADMIN_EMAIL,
    adminPassword: e.FLEETDECK_ADMIN_PASSWORD,
    deploymentMode: e.DEPLOYMENT_MODE,
    logLevel: e.LOG_LEVEL,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    webDistDir: e.WEB_DIST_DIR ? path.resolve(e.WEB_DIST_DIR) : defaultWebDist,
    trustProxy: e.TRUST_PROXY,
    otaImageMaxBytes: e.OTA_IMAGE_MAX_MB * 1024 * 1024,
    diagnosticsRetentionDays: e.DIAG_RETENTION_DAYS,
    diagnosticsLinks: e.DIAGNOSTICS_LINKS,
    userPool: e.USER_POOL,
    region: e.REGION,
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM ?? `Fleetdeck <no-reply@${new URL(publicUrl).hostname}>`,
      sendsPerHour: e.MAIL_SENDS_PER_HOUR,
    },
    push: {
      fcmApiUrl: e.PUSH_FCM_API_URL.replace(/\/+$/, ''),
      fcmTokenUrl: e.PUSH_FCM_TOKEN_URL,
      apnsUrl: e.PUSH_APNS_URL.replace(/\/+$/, ''),
      apnsSandboxUrl: e.PUSH_APNS_SANDBOX_URL.replace(/\/+$/, ''),
      caFile: e.PUSH_CA_FILE ? path.resolve(e.PUSH_CA_FILE) : undefined,
    },
    configPollSeconds: e.CONFIG_POLL_SECONDS,
    s3:
      e.S3_BUCKET && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? {
            bucket: e.S3_BUCKET,
            region: e.S3_REGION,
            endpoint: e.S3_ENDPOINT,
            // MinIO and most self-hosted stores have no per-bucket DNS names.
            forcePathStyle:
              (e.S3_FORCE_PATH_STYLE ?? String(e.S3_ENDPOINT !== undefined)) === 'true',
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            prefix: e.S3_PREFIX || undefined,
          }
        : undefined,
  };
}

/**
 * What an instance started for a scale-out (REDIS_URL: several instances behind a load balancer)
 * still lacks, one line each; empty otherwise. Each instance otherwise names itself after its own
 * port (token issuer) and keeps files on its own disk, which the others cannot serve (ADR 38).
 */
export function scaleOutGaps(config: AppConfig): string[] {
  if (!config.redisUrl) return [];
  const gaps: string[] = [];
  if (!config.databaseUrl)
    gaps.push('DATABASE_URL is not set: each instance has its own SQLite file; use PostgreSQL.');
  if (!config.publicUrlSet)
    gaps.push(
      "PUBLIC_URL is not set: tokens name this instance's own address, so the others refuse them; set the load balancer's URL on every instance.",
    );
  if (!config.s3)
    gaps.push(
      "S3_BUCKET is not set: firmware images and documents stay on this instance's disk, so downloads through another instance fail; use an S3-compatible store.",
    );
  if (!config.mqttUrl)
    gaps.push(
      'MQTT_URL is not set: each instance runs its own broker; point every instance at one external broker.',
    );
  return gaps;
}

import { createHash, X509Certificate } from 'node:crypto';
import {
  LICENSE_MAX_BYTES,
  SETTINGS_ERROR_CODES,
  SETTINGS_MESSAGES,
  type LicenseDetails,
  type LicenseFile,
  type LicenseUploadBody,
} from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import { listLicenseFiles, replaceLicenseFile } from '../../repositories/settings.repository.js';
import { transactionWithRetry } from '../../db/transaction-retry.js';

const DEFAULT_FILE_NAME = 'license.pem';
const PEM_BLOCK =
  /-----BEGIN ([A-Z0-9 ]+)-----\r?\n((?:[A-Za-z0-9+/=]+\r?\n)*?[A-Za-z0-9+/=]+={0,2}\r?\n)-----END \1-----/g;

/** Strict base64 (whitespace allowed between groups), the way a browser's FileReader sends it. */
function decodeBase64(text: string): Buffer | undefined {
  const compact = text.replace(/\s+/g, '');
  if (compact.length === 0 || compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact))
    return undefined;
  return Buffer.from(compact, 'base64');
}

/**
 * Reads a PEM file: every block must be well formed (matching BEGIN/END labels, base64 body);
 * a CERTIFICATE block must parse as X.509. Throws a 400 with a clear message otherwise.
 */
export function parsePem(text: string): LicenseDetails {
  const normalised = text.replace(/\r\n/g, '\n').trim() + '\n';
  const blocks = [...normalised.matchAll(PEM_BLOCK)];
  const leftover = normalised.replace(PEM_BLOCK, '').trim();
  if (blocks.length === 0 || leftover.length > 0)
    throw badRequest(SETTINGS_MESSAGES.licenseNotPem, SETTINGS_ERROR_CODES.licenseInvalid);
  const first = blocks[0];
  if (!first || !first[1])
    throw badRequest(SETTINGS_MESSAGES.licenseNotPem, SETTINGS_ERROR_CODES.licenseInvalid);
  for (const block of blocks)
    if (!decodeBase64(block[2] ?? ''))
      throw badRequest(SETTINGS_MESSAGES.licenseNotPem, SETTINGS_ERROR_CODES.licenseInvalid);
  const type = first[1];
  if (type !== 'CERTIFICATE') return { pem_type: type };
  try {
    const certificate = new X509Certificate(first[0]);
    return {
      pem_type: type,
      subject: certificate.subject.replace(/\n/g, ', '),
      issuer: certificate.issuer.replace(/\n/g, ', '),
      valid_from: new Date(certificate.validFrom).toISOString(),
      valid_to: new Date(certificate.validTo).toISOString(),
      fingerprint_sha256: certificate.fingerprint256,
    };
  } catch {
    throw badRequest(SETTINGS_MESSAGES.licenseBadCertificate, SETTINGS_ERROR_CODES.licenseInvalid);
  }
}

/** The Licensing Service tab: one current licence file, validated as PEM. */
export class LicenseService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Validates and stores the uploaded licence, replacing the previous one. */
  async upload(body: LicenseUploadBody): Promise<LicenseFile> {
    const bytes = decodeBase64(body.file_content_b64);
    if (!bytes)
      throw badRequest(SETTINGS_MESSAGES.licenseNotBase64, SETTINGS_ERROR_CODES.licenseInvalid);
    if (bytes.length > LICENSE_MAX_BYTES)
      throw badRequest(SETTINGS_MESSAGES.licenseTooLarge, SETTINGS_ERROR_CODES.licenseInvalid);
    const text = bytes.toString('utf8');
    const details = parsePem(text);
    const file: LicenseFile = {
      file_name: body.file_name ?? DEFAULT_FILE_NAME,
      date_modified: Math.floor(this.clock() / 1000),
      details,
    };
    await transactionWithRetry(this.db, (trx) =>
      replaceLicenseFile(trx, {
        file_name: file.file_name,
        content: text,
        details: JSON.stringify({
          ...details,
          sha256: createHash('sha256').update(bytes).digest('hex'),
        }),
        date_modified: file.date_modified,
      }),
    );
    return file;
  }

  /** The current licence (none: an empty list). */
  async list(): Promise<LicenseFile[]> {
    const rows = await listLicenseFiles(this.db);
    return rows.map((row) => {
      const { sha256: _digest, ...details } = JSON.parse(row.details) as LicenseDetails & {
        sha256?: string;
      };
      return { file_name: row.file_name, date_modified: Number(row.date_modified), details };
    });
  }
}

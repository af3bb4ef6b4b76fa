import { z } from 'zod';

/**
 * The OTA part of the device protocol (ARCHITECTURE §5, rainmaker-contract B.5): the offer the
 * cloud publishes on `otaurl`, what a node sends on `otafetch` and `otastatus`, and the signed
 * manifest that lets a node check an image came from this Fleetdeck install.
 */

/** Cloud → node `otaurl`: one offer of one job. */
export const OtaUrlPayloadSchema = z.object({
  ota_job_id: z.string(),
  ota_image_id: z.string(),
  /** A signed, expiring download URL; fetch it with HTTP Range to resume. */
  url: z.string(),
  fw_version: z.string(),
  type: z.string(),
  model: z.string(),
  file_size: z.number().int().nonnegative(),
  file_md5: z.string(),
  sha256: z.string(),
  /** Base64 Ed25519 signature over the UTF-8 bytes of otaManifestText(...) of this image. */
  signature: z.string(),
});
export type OtaUrlPayload = z.infer<typeof OtaUrlPayloadSchema>;

/** Node → cloud `otafetch`: "is there an update for me?". */
export const OtaFetchPayloadSchema = z
  .object({
    node_id: z.string().max(64),
    fw_version: z.string().max(64).optional(),
    network_id: z.string().max(64).optional(),
  })
  .loose();
export type OtaFetchPayload = z.infer<typeof OtaFetchPayloadSchema>;

/** Status values firmware reports (B.5); the cloud sets `started` and `triggered` itself. */
export const NODE_OTA_STATUSES = [
  'in-progress',
  'success',
  'failed',
  'delayed',
  'rejected',
] as const;
export type NodeReportedOtaStatus = (typeof NODE_OTA_STATUSES)[number];

/** Node → cloud `otastatus`. */
export const OtaStatusPayloadSchema = z
  .object({
    ota_job_id: z.string().min(1).max(64),
    status: z.enum(NODE_OTA_STATUSES),
    additional_info: z.string().max(1024).optional(),
    /** Epoch seconds on the node's clock (may be missing or wrong). */
    ts: z.number().int().nonnegative().optional(),
    network_id: z.string().max(64).optional(),
  })
  .loose();
export type OtaStatusPayload = z.infer<typeof OtaStatusPayloadSchema>;

/** What the signature of an image covers. */
export interface OtaManifest {
  ota_image_id: string;
  type: string;
  model: string;
  fw_version: string;
  file_size: number;
  sha256: string;
}

/**
 * The exact text whose UTF-8 bytes are signed for an image: the manifest fields in a fixed order
 * as JSON. Server (signing) and devices (verifying) both build it here, so they cannot drift.
 */
export function otaManifestText(manifest: OtaManifest): string {
  const ordered = {
    ota_image_id: manifest.ota_image_id,
    type: manifest.type,
    model: manifest.model,
    fw_version: manifest.fw_version,
    file_size: manifest.file_size,
    sha256: manifest.sha256.toLowerCase(),
  };
  return JSON.stringify(ordered);
}

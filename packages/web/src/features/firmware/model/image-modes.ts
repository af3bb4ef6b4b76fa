import type { Permission } from '@fleetdeck/contract';
import { FIRMWARE_LABELS } from '../labels';

/**
 * The firmware screens serve two kinds of image (fleet-management §2; access §2 Fault screens):
 * plain firmware images and fault images (`fault_image=true`, with a fault id). One table of
 * what differs, so the screens are shared instead of copied.
 */
export type ImageMode = 'firmware' | 'fault';

export interface ImageModeConfig {
  mode: ImageMode;
  /** The `fault_image` filter of GET /v1/admin/otaimage. */
  faultImage: boolean;
  listPath: string;
  archivedPath: string;
  heading: string;
  archivedHeading: string;
  addLabel: string;
  addTitle: string;
  backLabel: string;
  /** The jobs started with these images (features/ota's list), linked beside the archive link. */
  jobsPath: string;
  jobsLabel: string;
  /** Fault screens show dates in UTC (access §2). */
  utcDates: boolean;
  /** Archived lists offer Delete as well as Unarchive. */
  deleteFromArchive: boolean;
  writePermission: Permission;
}

export const IMAGE_MODES: Record<ImageMode, ImageModeConfig> = {
  firmware: {
    mode: 'firmware',
    faultImage: false,
    listPath: '/home/firmware-images',
    archivedPath: '/home/archived-firmware-images',
    heading: FIRMWARE_LABELS.heading,
    archivedHeading: FIRMWARE_LABELS.archivedHeading,
    addLabel: FIRMWARE_LABELS.addImage,
    addTitle: FIRMWARE_LABELS.addImageTitle,
    backLabel: FIRMWARE_LABELS.backToImages,
    jobsPath: '/home/ota-jobs/',
    jobsLabel: FIRMWARE_LABELS.otaJobsLink,
    utcDates: false,
    deleteFromArchive: true,
    writePermission: 'firmware.write',
  },
  fault: {
    mode: 'fault',
    faultImage: true,
    listPath: '/home/Fault-images',
    archivedPath: '/home/fault-archived-fault-images',
    heading: FIRMWARE_LABELS.faultHeading,
    archivedHeading: FIRMWARE_LABELS.faultArchivedHeading,
    addLabel: FIRMWARE_LABELS.addFaultImage,
    addTitle: FIRMWARE_LABELS.addFaultImageTitle,
    backLabel: FIRMWARE_LABELS.backToFaultImages,
    // Fault jobs have no sidebar entry: this link is the way to them (access §2 Fault screens).
    jobsPath: '/home/faultjobs',
    jobsLabel: FIRMWARE_LABELS.faultJobsLink,
    utcDates: true,
    deleteFromArchive: false,
    writePermission: 'firmware.write',
  },
};

/** Where an image's details are: /home/image-details/{id} or /home/fault-image-details/{id}. */
export function imageDetailsPath(mode: ImageMode, otaImageId: string): string {
  const base = mode === 'fault' ? '/home/fault-image-details/' : '/home/image-details/';
  return `${base}${encodeURIComponent(otaImageId)}`;
}

/** The details of an OTA job (the jobs screens are features/ota's). */
export function jobDetailsPath(otaJobId: string): string {
  return `/home/job-details/${encodeURIComponent(otaJobId)}`;
}

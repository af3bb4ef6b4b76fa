import { OTA_LABELS } from '../labels';

/**
 * The OTA job screens exist twice: for fleet firmware (fleet-management §2) and for fault images
 * (access §2 Fault screens). One component set serves both; this is everything that differs.
 */
export type JobScreenMode = 'fleet' | 'fault';

export interface JobModeConfig {
  /** Asked of GET /v1/admin/otajob: only jobs of fault images, or only the others. */
  faultImage: boolean;
  /** The fault views show dates in UTC (fleet-management §9); the fleet views in local time. */
  utc: boolean;
  listPath: string;
  archivedPath: string;
  heading: string;
  archivedHeading: string;
  detailsHeading: string;
  backToList: string;
  /** The progress bar's name for successful updates: 'success' or, on fault jobs, 'succeeded'. */
  successLabel: string;
  detailsPath: (otaJobId: string) => string;
  imageDetailsPath: (otaImageId: string) => string;
}

const at = (prefix: string) => (id: string) => `${prefix}${encodeURIComponent(id)}`;

export const JOB_MODES: Record<JobScreenMode, JobModeConfig> = {
  fleet: {
    faultImage: false,
    utc: false,
    listPath: '/home/ota-jobs/',
    archivedPath: '/home/ota-archived-jobs',
    heading: OTA_LABELS.fleetHeading,
    archivedHeading: OTA_LABELS.fleetArchivedHeading,
    detailsHeading: OTA_LABELS.detailsHeading,
    backToList: OTA_LABELS.backToJobs,
    successLabel: OTA_LABELS.progressSuccess,
    detailsPath: at('/home/job-details/'),
    imageDetailsPath: at('/home/image-details/'),
  },
  fault: {
    faultImage: true,
    utc: true,
    listPath: '/home/faultjobs',
    archivedPath: '/home/fault-ota-archived-jobs',
    heading: OTA_LABELS.faultHeading,
    archivedHeading: OTA_LABELS.faultArchivedHeading,
    detailsHeading: OTA_LABELS.faultDetailsHeading,
    backToList: OTA_LABELS.backToFaultJobs,
    successLabel: OTA_LABELS.progressSucceeded,
    detailsPath: at('/home/fault-job-details/'),
    imageDetailsPath: at('/home/fault-image-details/'),
  },
};

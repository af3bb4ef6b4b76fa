import type { OtaImage, OtaJob } from '@fleetdeck/contract';
import type { OtaImageRow } from '../../repositories/ota-image.repository.js';
import type { JobView } from '../../services/ota/ota-job.service.js';

/** An image as the API shows it, with a fresh signed download URL. */
export function toOtaImage(row: OtaImageRow, imageUrl: string): OtaImage {
  return {
    ota_image_id: row.ota_image_id,
    image_name: row.image_name,
    type: row.type,
    model: row.model,
    fw_version: row.fw_version,
    upload_timestamp: Number(row.upload_timestamp),
    image_url: imageUrl,
    file_name: row.file_name,
    file_size: Number(row.file_size),
    file_md5: row.file_md5,
    file_sha256: row.file_sha256,
    signature: row.signature,
    package: row.is_package === 1,
    archived: row.archived === 1,
    ...(row.fault_id ? { fault_id: row.fault_id } : {}),
  };
}

/** A job as the API shows it; counts come from the executions. */
export function toOtaJob({ job, summary, groupNames }: JobView): OtaJob {
  const groups = JSON.parse(job.groups) as string[];
  const completed = summary.success + summary.failed + summary.rejected + summary.cancelled;
  return {
    ota_job_id: job.ota_job_id,
    ota_job_name: job.ota_job_name,
    ota_image_id: job.ota_image_id,
    image_name: job.image_name ?? '',
    description: job.description,
    status: job.status,
    force_push: job.force_push === 1,
    triggered_timestamp: Number(job.triggered_timestamp),
    ...(job.cancelled_timestamp !== null
      ? { canceled_timestamp: Number(job.cancelled_timestamp) }
      : {}),
    ...(job.finished_timestamp !== null
      ? { finished_timestamp: Number(job.finished_timestamp) }
      : {}),
    total_count: summary.total,
    completed_count: completed,
    groups,
    node_groups: groups.map((id) => ({ group_id: id, group_name: groupNames.get(id) ?? '' })),
    nodes: JSON.parse(job.nodes) as string[],
    archived: job.archived === 1,
    ...(job.fault_id ? { fault_id: job.fault_id } : {}),
    summary,
  };
}

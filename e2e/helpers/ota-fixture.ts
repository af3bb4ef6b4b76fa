import type { NodeRegistration } from '@fleetdeck/contract';
import { apiJson, apiToken } from './fleetdeck-server.js';

/** What `seedOtaFixture` made. */
export interface OtaFixture {
  imageId: string;
  groupId: string;
  jobId: string;
}

/**
 * Through the API as the super admin: registers `nodes`, adds a firmware image for their type,
 * creates a static group and starts an OTA job of the image on the nodes. Tests of the screens
 * that show these (their dialogs, their long values) start from it.
 */
export async function seedOtaFixture(
  baseUrl: string,
  fixture: {
    nodes: (NodeRegistration & { node_id: string })[];
    image: { image_name: string; fw_version: string; fill: number };
    group: { group_name: string; description?: string };
    jobName: string;
  },
): Promise<OtaFixture> {
  const token = await apiToken(baseUrl);
  const api = <T>(method: string, path: string, body?: unknown) =>
    apiJson<T>(baseUrl, token, method, path, body);
  const first = fixture.nodes[0];
  if (!first) throw new Error('an OTA fixture needs a node');
  await api('POST', '/v1/admin/node_ids', { nodes: fixture.nodes });
  const { ota_image_id: imageId } = await api<{ ota_image_id: string }>(
    'POST',
    '/v1/admin/otaimage',
    {
      image_name: fixture.image.image_name,
      type: first.type,
      model: first.model,
      fw_version: fixture.image.fw_version,
      base64_fwimage: Buffer.alloc(1024, fixture.image.fill).toString('base64'),
    },
  );
  const { group_id: groupId } = await api<{ group_id: string }>(
    'POST',
    '/v1/admin/node_group',
    fixture.group,
  );
  const { ota_job_id: jobId } = await api<{ ota_job_id: string }>('POST', '/v1/admin/otajob', {
    ota_job_name: fixture.jobName,
    ota_image_id: imageId,
    nodes: fixture.nodes.map((node) => node.node_id),
  });
  return { imageId, groupId, jobId };
}

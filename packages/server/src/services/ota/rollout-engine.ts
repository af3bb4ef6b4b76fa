import type { OtaFetchPayload, OtaJobStatus, OtaUrlPayload } from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import { runAloneForJob } from '../../db/dialect.js';
import type { Database } from '../../db/schema.js';
import type { NodeGateway } from '../../gateway/node-gateway.js';
import type { Logger } from '../../logger.js';
import {
  claimOffers,
  findJob,
  hasActiveJob,
  OFFERABLE_STATUSES,
  offerForJob,
  onlineUnofferedNodes,
  pendingOfferForNode,
  REFETCHABLE_STATUSES,
} from '../../repositories/ota-job.repository.js';
import type { ImageService } from '../firmware/image.service.js';
import type { NodeEvents } from '../nodes/node-events.js';
import type { JobLifecycleListener } from './ota-job.service.js';
import { transactionWithRetry } from '../../db/transaction-retry.js';

/** Offers are published and recorded this many nodes at a time. */
const DISPATCH_BATCH = 500;

type OfferStatus = (typeof REFETCHABLE_STATUSES)[number];
type PendingOffer = NonNullable<Awaited<ReturnType<typeof pendingOfferForNode>>>;

/**
 * The rollout engine (ARCHITECTURE §6): it sends `otaurl` offers. A force-pushed job is offered at
 * once to its online targets; every node is also offered its newest pending job when it connects
 * or asks with `otafetch`. An offer is recorded (`triggered`) before it is published, so a crash
 * between the two leaves the node to be offered again, never forgotten. Cancel stops offers at
 * once: dispatch loops check between batches, and every offer query requires an active job.
 *
 * Several instances may hear the same connect or question and resume the same force push: an
 * offer is published only when this instance's conditional update claimed it (`claimOffers`),
 * and a job is dispatched by one instance at a time (`runAloneForJob`). ADR 7, amendment 2.
 */
export class RolloutEngine implements JobLifecycleListener {
  private gateway: NodeGateway | undefined;
  private readonly dispatching = new Map<string, Promise<void>>();
  private readonly cancelled = new Set<string>();
  private stopped = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly images: ImageService,
    private readonly events: NodeEvents,
    private readonly logger: Logger,
  ) {
    events.onConnectivity((event) => {
      if (event.connected)
        void this.offerIfAnyJob(event.node_id, OFFERABLE_STATUSES, event.timestamp);
    });
  }

  /**
   * Nodes that connected or asked since the last look for active jobs, with the execution
   * statuses each may be offered and when its latest connect or question arrived (a reconnect
   * storm is one look).
   */
  private toCheck = new Map<string, { statuses: readonly OfferStatus[]; since: number }>();
  /** Settles once the look of the current turn has made (or found no) offers. */
  private checked: Promise<void> | undefined;

  /**
   * Collects the nodes of one turn of the event loop and asks once whether any job is active:
   * with none (the common case), a storm of 18,000 connects and `otafetch`es costs one query
   * instead of 18,000. Settles (never rejects) once every offer of that look is published.
   */
  private offerIfAnyJob(
    nodeId: string,
    statuses: readonly OfferStatus[],
    since: number,
  ): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const earlier = this.toCheck.get(nodeId);
    // One offer answers both; it must answer the later of the two.
    this.toCheck.set(nodeId, {
      statuses: earlier && earlier.statuses.length >= statuses.length ? earlier.statuses : statuses,
      since: Math.max(since, earlier?.since ?? since),
    });
    this.checked ??= new Promise<void>((resolve) => {
      setImmediate(() => {
        // A node can ask before the gateway is attached: an external broker hands over what it
        // queued for Fleetdeck's kept session as soon as Fleetdeck connects, during start-up.
        void this.gatewayAttached.then(() => {
          const checks = [...this.toCheck];
          this.toCheck.clear();
          this.checked = undefined;
          if (this.stopped) return resolve();
          hasActiveJob(this.db)
            .then(async (active) => {
              if (active)
                await Promise.all(
                  checks.map(([id, check]) => this.offerPending(id, check.statuses, check.since)),
                );
            })
            .catch((error: unknown) => this.logger.error({ err: error }, 'OTA offer check failed'))
            .finally(resolve);
        });
      });
    });
    return this.checked;
  }

  private markAttached: () => void = () => undefined;
  /** Resolves once a gateway is attached (or the engine stops). */
  private readonly gatewayAttached = new Promise<void>((resolve) => {
    this.markAttached = resolve;
  });

  /** Starts offering through `gateway`, resuming force pushes of jobs still active. */
  async attachGateway(gateway: NodeGateway): Promise<void> {
    this.gateway = gateway;
    this.markAttached();
    const active = await this.db
      .selectFrom('ota_jobs')
      .select('ota_job_id')
      .where('status', '=', 'active')
      .where('force_push', '=', 1)
      .execute();
    for (const job of active) this.dispatch(job.ota_job_id);
  }

  /** Stops dispatching (shutdown); waits for batches under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.markAttached();
    await Promise.allSettled([...this.dispatching.values()]);
  }

  jobCreated(otaJobId: string, forcePush: boolean): void {
    this.emit(otaJobId, 'active');
    if (forcePush) this.dispatch(otaJobId);
  }

  jobCancelled(otaJobId: string): void {
    this.cancelled.add(otaJobId);
    this.emit(otaJobId, 'cancelled');
  }

  /**
   * The node asked for an update (`otafetch`, arrived at `receivedAt` epoch ms). Settles (never
   * rejects) once the answer, if any, is published, so the question counts as handled only then
   * (see NodeIngestService).
   */
  otaFetch(nodeId: string, payload: OtaFetchPayload, receivedAt = Date.now()): Promise<void> {
    this.logger.debug({ nodeId, fwVersion: payload.fw_version }, 'otafetch');
    return this.offerIfAnyJob(nodeId, REFETCHABLE_STATUSES, receivedAt);
  }

  /**
   * Offers the node its newest pending job, if any: one whose execution is in `statuses` (a node
   * that asks is offered an update it was cut off in, too) and was not offered since `since`
   * (epoch ms; when the connect or question arrived): an offer made after that, here or on
   * another instance, reached the node already. Never rejects; settles once the offer is published.
   */
  offerPending(
    nodeId: string,
    statuses: readonly OfferStatus[] = OFFERABLE_STATUSES,
    since = Date.now(),
  ): Promise<void> {
    if (!this.gateway || this.stopped) return Promise.resolve();
    return (async () => {
      const offer = await pendingOfferForNode(this.db, nodeId, statuses);
      if (!offer || this.cancelled.has(offer.ota_job_id)) return;
      const claimed = await transactionWithRetry(this.db, (trx) =>
        claimOffers(trx, offer.ota_job_id, [nodeId], Date.now(), {
          statuses,
          notOfferedSince: since,
        }),
      );
      if (claimed.length === 0) return;
      await this.publish(nodeId, this.payloadOf(offer));
      this.emit(offer.ota_job_id, 'active');
    })().catch((error: unknown) => this.logger.error({ err: error, nodeId }, 'OTA offer failed'));
  }

  /**
   * Offers a force-pushed job to its online targets, batch by batch, until none is left; skipped
   * while another instance dispatches the job (it offers the same nodes).
   */
  dispatch(otaJobId: string): void {
    if (this.dispatching.has(otaJobId) || !this.gateway) return;
    const run = runAloneForJob(this.db, otaJobId, (db) => this.dispatchJob(db, otaJobId))
      .then((ran) => {
        if (!ran) this.logger.debug({ otaJobId }, 'OTA job dispatched by another instance');
      })
      .catch((error: unknown) => this.logger.error({ err: error, otaJobId }, 'OTA dispatch failed'))
      .finally(() => this.dispatching.delete(otaJobId));
    this.dispatching.set(otaJobId, run);
  }

  /** Resolves when every dispatch under way has finished (tests). */
  async idle(): Promise<void> {
    while (this.dispatching.size > 0) await Promise.allSettled([...this.dispatching.values()]);
  }

  /** The dispatch loop, on `db` (the connection that holds the job's dispatch lock). */
  private async dispatchJob(db: Kysely<Database>, otaJobId: string): Promise<void> {
    let after = '';
    let payload: OtaUrlPayload | undefined;
    for (;;) {
      if (this.stopped || this.cancelled.has(otaJobId)) return;
      const job = await findJob(db, otaJobId);
      if (!job || job.status !== 'active') return;
      const nodeIds = await onlineUnofferedNodes(db, otaJobId, after, DISPATCH_BATCH);
      if (nodeIds.length === 0) return;
      payload ??= await this.payloadForJob(db, otaJobId);
      if (!payload) return;
      // Only never-offered executions: one a connect offered meanwhile is not offered again.
      const claimed = await transactionWithRetry(db, (trx) =>
        claimOffers(trx, otaJobId, nodeIds, Date.now(), { statuses: ['started'] }),
      );
      const message = payload;
      await Promise.all(claimed.map((nodeId) => this.publish(nodeId, message)));
      if (claimed.length > 0) this.emit(otaJobId, 'active');
      after = nodeIds[nodeIds.length - 1] ?? after;
    }
  }

  private async payloadForJob(
    db: Kysely<Database>,
    otaJobId: string,
  ): Promise<OtaUrlPayload | undefined> {
    const row = await offerForJob(db, otaJobId);
    return row ? this.payloadOf(row) : undefined;
  }

  private payloadOf(offer: PendingOffer): OtaUrlPayload {
    return {
      ota_job_id: offer.ota_job_id,
      ota_image_id: offer.ota_image_id,
      url: this.images.downloadUrl(offer),
      fw_version: offer.fw_version,
      type: offer.type,
      model: offer.model,
      file_size: Number(offer.file_size),
      file_md5: offer.file_md5,
      sha256: offer.file_sha256,
      signature: offer.signature,
    };
  }

  private async publish(nodeId: string, payload: OtaUrlPayload): Promise<void> {
    try {
      await this.gateway?.publishToNode(nodeId, 'otaurl', payload);
    } catch (error) {
      // The offer stays recorded as triggered; the node gets it again at its next connect.
      this.logger.warn(
        { err: error, nodeId, otaJobId: payload.ota_job_id },
        'otaurl publish failed',
      );
    }
  }

  private emit(otaJobId: string, status: OtaJobStatus): void {
    this.events.emitOtaJob({ type: 'ota.job', ota_job_id: otaJobId, status });
  }
}

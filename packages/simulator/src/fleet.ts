import {
  NODE_REGISTRATION_MAX,
  SERVER_MESSAGES,
  nodeTopic,
  parseNodeTopic,
  ParamsPayloadSchema,
  type IngestSuffix,
  type OtaStatusPayload,
} from '@fleetdeck/contract';
import {
  ApiClient,
  ApiError,
  ApiUnreachableError,
  type ApiSession,
  type FetchLike,
} from './api-client.js';
import {
  APPLIANCE_PROFILES,
  applyRemoteWrite,
  initialParams,
  type ApplianceProfile,
  type ParamsDocument,
} from './appliance-profiles.js';
import { endUserCount, endUserName, generatePassword } from './end-users.js';
import { loadFleetState, saveFleetState, type FleetState, type StateNode } from './fleet-state.js';
import { mqttLinkFactory, type LinkEnd, type NodeLink, type NodeLinkFactory } from './mqtt-link.js';
import {
  isClaimCandidate,
  nodeSpecs,
  ownerSlot,
  toRegistration,
  usesBasicIngest,
} from './node-spec.js';
import {
  connectionPayload,
  nodeConfigPayload,
  NODE_SUBSCRIPTIONS,
  publishTopic,
  userMappingPayload,
} from './payloads.js';
import { parseSigningKey } from './ota/image-verifier.js';
import {
  OtaAgent,
  otaSettings,
  type OtaDevice,
  type OtaOptions,
  type OtaSlot,
} from './ota/ota-agent.js';
import { deriveSeed, Rng, stableRoll } from './prng.js';
import { DEFAULT_FAULT_RATE_PER_NODE_HOUR, nextFaultValue } from './faults.js';
import { TimerQueue } from './timer-queue.js';
import {
  bootReport,
  DEFAULT_DIAGNOSTICS_RATES,
  diagnosticsReport,
  encodeDiagnostics,
  RESET_REASON,
  type DiagnosticsNode,
  type DiagnosticsRates,
} from './diagnostics.js';

/** How to run a fleet. Only the first four are required; the rest have realistic defaults. */
export interface FleetOptions {
  /** Base URL of the Fleetdeck HTTP API, e.g. `http://127.0.0.1:8080`. */
  serverUrl: string;
  /** MQTT broker URL, e.g. `mqtt://127.0.0.1:1883`. */
  mqttUrl: string;
  /** How many nodes to simulate. */
  nodes: number;
  /** Same seed, same fleet (ids, types, models, tags, initial values). Default 1. */
  seed?: number;
  /** A super admin, needed to register nodes and create end users. */
  admin?: { email: string; password: string } | undefined;
  /** JSON file that keeps registered nodes and their credentials between runs. */
  statePath?: string | undefined;
  /** Abrupt connection drops per hour per 1,000 nodes. Default 3. */
  flapRatePerHour?: number;
  /** Share of nodes claimed by simulated end users. Default 0.3. */
  claimShare?: number;
  /** Faults raised per node per hour (skewed by firmware, see faults.ts). Default 0.03. */
  faultRatePerHour?: number;
  /** Share of nodes that publish on the `$aws/rules/…` basic-ingest topics. Default 0.5. */
  basicIngestShare?: number;
  /** New connections per second (initial connects and reconnects alike). Default 200. */
  connectRatePerSecond?: number;
  /** Connections waiting for CONNACK at most at once. Default 500. */
  maxConnectsInFlight?: number;
  /** Each node reports a small change every [min, max] ms. Default 30–120 s. */
  paramIntervalMs?: readonly [number, number];
  /** A flapped node stays away this long, [min, max] ms. Default 3–20 s. */
  flapDowntimeMs?: readonly [number, number];
  /** End-user claims running at once. Default 8. */
  claimConcurrency?: number;
  /** How often a mapping request's state is polled, ms. Default 500. */
  claimPollMs?: number;
  /** A failed or deferred claim is tried again after this many ms. Default 30 s. */
  claimRetryMs?: number;
  /**
   * Each online node sends a diagnostics report (logs, metrics, variables) every this many
   * seconds, the first at a random point of the interval; 0 sends none, not even the boot report.
   * Default 300.
   */
  diagIntervalSeconds?: number;
  /** Share of nodes that send ESP Insights binary frames instead of JSON. Default 0.2. */
  diagBinaryShare?: number;
  /** Chances of a crash, warning and error per diagnostics report (see diagnostics.ts). */
  diagRates?: DiagnosticsRates;
  /** The boot report follows a connect after [min, max] ms. Default 2–8 s. */
  diagBootDelayMs?: readonly [number, number];
  /** Scheduler tick, ms. Default 100. */
  tickMs?: number;
  /** How often a changed state file is written while running, ms. Default 60 s. */
  stateSaveIntervalMs?: number;
  /** Where progress lines go. Default: stdout. */
  log?: (line: string) => void;
  /** MQTT link factory (tests inject a fake). Default: mqtt.js. */
  linkFactory?: NodeLinkFactory;
  /** HTTP `fetch` (tests inject a fake). Default: global fetch. */
  fetch?: FetchLike;
  /**
   * Nodes answer OTA offers like firmware (see ota/ota-agent.ts). Without it, offers are only
   * counted. Without `ota.publicKey`, the key is fetched once at start with the admin credentials.
   */
  ota?: OtaOptions | undefined;
}

/** Counters for status lines and tests. */
export interface FleetStats {
  total: number;
  connected: number;
  connecting: number;
  /** Publishes the broker acknowledged (PUBACK). */
  messagesSent: number;
  messagesReceived: number;
  publishFailures: number;
  /** Successful connects (including reconnects). */
  connects: number;
  /** Connects the broker refused (CONNACK ≠ 0), e.g. unknown credentials. */
  refused: number;
  /** Connects that failed for other reasons (unreachable, timeout). */
  connectFailures: number;
  /** Connections lost without us asking (broker restart, keep-alive). */
  lost: number;
  flaps: number;
  /** Remote param writes applied. */
  remoteWrites: number;
  /** Diagnostics reports the broker acknowledged (boot and periodic, both encodings). */
  diagnosticsSent: number;
  otaOffers: number;
  /** `otastatus` reports sent with a final status (success counts once, after the reboot). */
  otaSucceeded: number;
  otaFailed: number;
  otaRejected: number;
  claimCandidates: number;
  claimed: number;
  claimFailures: number;
  lastError: string | undefined;
}

/** A node as tests see it. */
export interface SimulatedNodeView {
  nodeId: string;
  status: NodeStatus;
  session: number;
  basicIngest: boolean;
  /** Sends diagnostics as ESP Insights binary frames (else JSON). */
  diagBinary: boolean;
  claimCandidate: boolean;
  claimedBy: string | undefined;
  params: ParamsDocument | undefined;
  type: string;
  model: string;
  fwVersion: string;
  /** The OTA job the node is updating to (or rebooting into), if any. */
  otaJob: string | undefined;
  /** The last final OTA status the node reported (success, failed or rejected), if any. */
  lastVerdict: OtaStatusPayload | undefined;
  /** Whether a verdict still waits for the broker's acknowledgement (kept and sent again). */
  verdictPending: boolean;
  /** Bytes of firmware images the node has received in all (resumed and repeated downloads too). */
  imageBytesReceived: number;
}

/** A fleet cannot start; the message is one line meant for the operator. */
export class FleetSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FleetSetupError';
  }
}

/** Where a simulated node is in its life: waiting, queued to connect, connecting, online, stopped. */
export type NodeStatus = 'idle' | 'queued' | 'connecting' | 'online' | 'stopped';

interface SimNode {
  readonly index: number;
  readonly record: StateNode;
  readonly profile: ApplianceProfile;
  readonly basicIngest: boolean;
  readonly diagBinary: boolean;
  readonly claimCandidate: boolean;
  status: NodeStatus;
  /** Bumped on every status change, so stale timer entries are recognised. */
  epoch: number;
  /** Failed attempts in a row (for back-off). */
  attempts: number;
  link: NodeLink | undefined;
  params: ParamsDocument | undefined;
  /** End (epoch s) of the last diagnostics window sent; 0 while the boot report is pending. */
  diagUntil: number;
  /** The `esp_reset_reason_t` of the last boot, for the boot report. */
  resetReason: number;
  /** When the node's fault was last stepped (0: not yet; the first drift only starts the clock). */
  faultCheckedAt: number;
  dropping: boolean;
  claiming: boolean;
  claimAttempts: number;
  /** Allocated only when an OTA offer is taken up; kept across the reboot (firmware's NVS). */
  ota: OtaSlot | undefined;
  /** The last final OTA status reported; kept (NVS) and sent again until acknowledged. */
  verdict: OtaStatusPayload | undefined;
  /** Final statuses not yet acknowledged, oldest first (kept in NVS, sent again in order). */
  unsentVerdicts: OtaStatusPayload[];
  /** The sends of this connection's verdicts: true once all are acknowledged. */
  verdictDelivery: Promise<boolean> | undefined;
  /** The node's network is cut until then (epoch ms); 0 when it never was. */
  unreachableUntil: number;
  /** The node was power-cycled: it is away for the reboot delay. */
  powerCycled: boolean;
  imageBytesReceived: number;
}

interface EndUser {
  userName: string;
  userId: string;
  session: ApiSession;
}

const KEEPALIVE_SECONDS = 120;
const CONNECT_TIMEOUT_MS = 20_000;
const STOP_DEADLINE_MS = 5_000;
const CLAIM_POLLS = 20;
const CLAIM_MAX_ATTEMPTS = 3;
const PUBACK_TIMEOUT_MS = 30_000;
const RUNTIME_STREAM = 0xf1ee7;
const OTA_REBOOT_DELAY_MS = [2_000, 5_000] as const;
const PARAMS_STREAM = 0x9a7a;
/** Unacknowledged OTA verdicts a node keeps (NVS is small); the oldest goes first. */
const MAX_KEPT_VERDICTS = 8;
/** A duplicated OTA status report follows the first this much later, [min, max] ms. */
const DUPLICATE_DELAY_MS = [0, 3_000] as const;

/**
 * A simulated fleet: registers (or reuses) nodes, keeps each connected with its own MQTT client,
 * reports parameter changes, flaps connections and claims a share of nodes for end users. One
 * scheduler tick drives every node; per-node state is a few fields. Drive it with `start()` and
 * `stop()`; read `stats()` and `node()` from tests.
 */
export class Fleet {
  private readonly options: Required<Omit<FleetOptions, 'admin' | 'statePath' | 'fetch' | 'ota'>> &
    Pick<FleetOptions, 'admin' | 'statePath' | 'ota'>;
  private readonly api: ApiClient;
  private readonly rng: Rng;
  private otaAgent: OtaAgent | undefined;
  private state: FleetState | undefined;
  private nodes: SimNode[] = [];
  private readonly byId = new Map<string, SimNode>();
  private readonly timers = new TimerQueue();
  /** Diagnostics reports due, tagged with the node's epoch like `timers`. */
  private readonly diagTimers = new TimerQueue();
  private readonly claimRetries = new TimerQueue();
  private connectQueue: number[] = [];
  private connectHead = 0;
  private tokens = 0;
  private lastTick = 0;
  private inFlight = 0;
  private tick: NodeJS.Timeout | undefined;
  private nextFlapAt = Number.POSITIVE_INFINITY;
  private stateDirty = false;
  private lastSave = 0;
  private saveChain: Promise<void> = Promise.resolve();
  /** Whether the state file is ours to write (loaded, or created for this fleet). */
  private ownsStateFile = false;
  private claimQueue: number[] = [];
  private claimWorkers = 0;
  private readonly claimTasks = new Set<Promise<void>>();
  private endUsers: EndUser[] = [];
  private claimsEnabled = false;
  private readonly abort = new AbortController();
  private starting: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  private readonly counters: Omit<FleetStats, 'total' | 'connected' | 'connecting'> = {
    messagesSent: 0,
    messagesReceived: 0,
    publishFailures: 0,
    connects: 0,
    refused: 0,
    connectFailures: 0,
    lost: 0,
    flaps: 0,
    remoteWrites: 0,
    diagnosticsSent: 0,
    otaOffers: 0,
    otaSucceeded: 0,
    otaFailed: 0,
    otaRejected: 0,
    claimCandidates: 0,
    claimed: 0,
    claimFailures: 0,
    lastError: undefined,
  };
  private connected = 0;
  private readonly warned = new Set<string>();

  constructor(options: FleetOptions) {
    const given = Object.fromEntries(
      Object.entries(options).filter(([, value]) => value !== undefined),
    ) as FleetOptions;
    this.options = {
      seed: 1,
      flapRatePerHour: 3,
      claimShare: 0.3,
      faultRatePerHour: DEFAULT_FAULT_RATE_PER_NODE_HOUR,
      basicIngestShare: 0.5,
      connectRatePerSecond: 200,
      maxConnectsInFlight: 500,
      paramIntervalMs: [30_000, 120_000],
      diagIntervalSeconds: 300,
      diagBinaryShare: 0.2,
      diagRates: DEFAULT_DIAGNOSTICS_RATES,
      diagBootDelayMs: [2_000, 8_000],
      flapDowntimeMs: [3_000, 20_000],
      claimConcurrency: 8,
      claimPollMs: 500,
      claimRetryMs: 30_000,
      tickMs: 100,
      stateSaveIntervalMs: 60_000,
      log: (line) => console.log(line),
      linkFactory: mqttLinkFactory,
      ...given,
    };
    this.api = new ApiClient(options.serverUrl, options.fetch);
    this.rng = new Rng(deriveSeed(this.options.seed, RUNTIME_STREAM));
  }

  /**
   * Loads or registers the nodes, prepares the end users and starts connecting. Resolves once
   * connecting has begun (not when every node is online: see `waitUntil`). Throws FleetSetupError
   * with a one-line reason when the fleet cannot start (refused sign-in, unreachable server…).
   */
  start(): Promise<void> {
    this.starting ??= this.prepare().then(() => {
      if (this.stopping) return;
      this.run();
    });
    return this.starting;
  }

  /** Ends every connection (birth message set to offline first), writes the state file. */
  stop(): Promise<void> {
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  /** Current counters. */
  stats(): FleetStats {
    return {
      ...this.counters,
      total: this.nodes.length,
      connected: this.connected,
      connecting: this.inFlight,
    };
  }

  /** The ids of the simulated nodes, in fleet order. */
  nodeIds(): string[] {
    return this.nodes.map((node) => node.record.node_id);
  }

  /** One node as tests see it. */
  node(nodeId: string): SimulatedNodeView | undefined {
    const node = this.byId.get(nodeId);
    if (!node) return undefined;
    return {
      nodeId,
      status: node.status,
      session: node.record.session,
      basicIngest: node.basicIngest,
      diagBinary: node.diagBinary,
      claimCandidate: node.claimCandidate,
      claimedBy: node.record.claimed_by,
      params: node.params,
      type: node.record.type,
      model: node.record.model,
      fwVersion: node.record.fw_version,
      otaJob: node.ota?.jobId,
      lastVerdict: node.verdict,
      verdictPending: node.unsentVerdicts.length > 0,
      imageBytesReceived: node.imageBytesReceived,
    };
  }

  /** Drops one node's connection abruptly now (as a scheduled flap would). */
  flapNode(nodeId: string): boolean {
    const node = this.byId.get(nodeId);
    if (!node || node.status !== 'online' || !node.link) return false;
    node.dropping = true;
    this.counters.flaps++;
    node.link.drop();
    return true;
  }

  /**
   * Cuts the network of these nodes for `durationMs` (a Wi-Fi outage, a partition): their
   * connections drop, reconnects fail and image downloads are cut until it is over. Returns how
   * many nodes it reached.
   */
  partition(nodeIds: readonly string[], durationMs: number): number {
    const until = Date.now() + durationMs;
    let cut = 0;
    for (const nodeId of nodeIds) {
      const node = this.byId.get(nodeId);
      if (!node || node.status === 'stopped') continue;
      cut += 1;
      node.unreachableUntil = Math.max(node.unreachableUntil, until);
      this.otaAgent?.networkDown(nodeId);
      // The broker would notice at the keep-alive; the socket is dropped here at once.
      if (node.status === 'online') node.link?.drop();
    }
    return cut;
  }

  /**
   * Power-cycles one node: a download under way is lost (the node asks for the update again after
   * it boots), the connection drops without DISCONNECT, and the node boots after the reboot
   * delay. An image already flashed boots. False when the node does not exist or is stopped.
   */
  powerCycle(nodeId: string): boolean {
    const node = this.byId.get(nodeId);
    if (!node || node.status === 'stopped') return false;
    this.otaAgent?.powerOff(nodeId);
    if (node.status === 'online' && node.link) {
      node.dropping = true;
      node.powerCycled = true;
      node.link.drop();
    }
    return true;
  }

  /** Makes one online node report a parameter change now. */
  changeParams(nodeId: string): boolean {
    const node = this.byId.get(nodeId);
    if (!node || node.status !== 'online') return false;
    this.drift(node);
    return true;
  }

  /** Resolves when `predicate(stats)` holds; rejects after `timeoutMs`. */
  async waitUntil(predicate: (stats: FleetStats) => boolean, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.stats())) {
      if (Date.now() > deadline) {
        throw new Error(
          `fleet condition not met in ${timeoutMs} ms: ${JSON.stringify(this.stats())}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  // ---------------------------------------------------------------- setup

  private async prepare(): Promise<void> {
    const { seed, statePath } = this.options;
    const loaded = statePath ? await loadFleetState(statePath) : undefined;
    const state: FleetState = loaded ?? { version: 1, seed, nodes: [], users: [] };
    this.state = state;
    this.ownsStateFile = loaded !== undefined;
    if (loaded && loaded.seed !== seed && loaded.nodes.length > 0) {
      this.log(
        `State file ${statePath} was made with --seed ${loaded.seed}: its ${loaded.nodes.length} nodes keep their identity; new nodes come from --seed ${seed}.`,
      );
    }
    if (!statePath) {
      this.log(
        'No --state file: node credentials live in memory only; this run cannot be resumed.',
      );
    }

    const missing = this.options.nodes - state.nodes.length;
    let admin: ApiSession | undefined;
    if (missing > 0) {
      admin = await this.adminSession(`${missing} node(s) need registering`);
      if (statePath && !loaded) {
        // Registration hands out credentials once: make sure they can be kept before asking.
        await saveFleetState(statePath, state).catch((error: unknown) => {
          throw new FleetSetupError(
            `Cannot write the state file ${statePath}: ${(error as Error).message}`,
          );
        });
        this.ownsStateFile = true;
      }
      await this.register(admin, state, missing);
    } else if (state.nodes.length > 0) {
      this.log(`Reusing ${this.options.nodes} registered node(s) from ${statePath}.`);
    }

    const records = state.nodes.slice(0, this.options.nodes);
    this.nodes = records.map((record, index) => {
      const node: SimNode = {
        index,
        record,
        profile: APPLIANCE_PROFILES[record.type],
        basicIngest: usesBasicIngest(record.node_id, this.options.basicIngestShare),
        diagBinary: stableRoll(record.node_id, 'diagbinary') < this.options.diagBinaryShare,
        claimCandidate: isClaimCandidate(record.node_id, this.options.claimShare),
        status: 'idle',
        epoch: 0,
        attempts: 0,
        link: undefined,
        params: undefined,
        diagUntil: 0,
        resetReason: RESET_REASON.powerOn,
        faultCheckedAt: 0,
        dropping: false,
        claiming: false,
        claimAttempts: 0,
        ota: undefined,
        verdict: undefined,
        unsentVerdicts: [],
        verdictDelivery: undefined,
        unreachableUntil: 0,
        powerCycled: false,
        imageBytesReceived: 0,
      };
      this.byId.set(record.node_id, node);
      return node;
    });
    this.counters.claimCandidates = this.nodes.filter((node) => node.claimCandidate).length;
    this.counters.claimed = this.nodes.filter((node) => node.record.claimed_by).length;
    if (!this.stopping) admin = await this.prepareOta(admin);
    if (!this.stopping) await this.prepareEndUsers(admin);
  }

  /** Sets up the OTA agent with the install's key (given, or fetched once like baked-in firmware). */
  private async prepareOta(admin: ApiSession | undefined): Promise<ApiSession | undefined> {
    const ota = this.options.ota;
    if (!ota) return admin;
    try {
      let key = ota.publicKey;
      if (key === undefined) {
        admin ??= await this.adminSession("OTA needs the install's signing key");
        key = (await admin.signingKey()).public_key;
      }
      this.otaAgent = new OtaAgent(otaSettings(ota, parseSigningKey(key), this.options.seed));
    } catch (error) {
      const reason = this.setupError(error).message;
      if (ota.whenKeyUnavailable !== 'skip') throw new FleetSetupError(reason);
      this.log(`OTA skipped (${reason}): offers are counted but not answered.`);
    }
    return admin;
  }

  private async adminSession(why: string): Promise<ApiSession> {
    const admin = this.options.admin;
    if (!admin) {
      throw new FleetSetupError(
        `${why}, but no admin credentials were given (--admin-email and --admin-password, or FLEETDECK_ADMIN_EMAIL and FLEETDECK_ADMIN_PASSWORD).`,
      );
    }
    try {
      return await this.api.login(admin.email, admin.password);
    } catch (error) {
      if (error instanceof ApiError) {
        throw new FleetSetupError(
          `The server refused the admin sign-in for ${admin.email} (${error.status}: ${error.description}).`,
        );
      }
      throw this.setupError(error);
    }
  }

  private setupError(error: unknown): Error {
    if (error instanceof ApiUnreachableError) return new FleetSetupError(error.message);
    return error instanceof Error ? error : new Error(String(error));
  }

  private async register(admin: ApiSession, state: FleetState, missing: number): Promise<void> {
    const taken = new Set(state.nodes.map((node) => node.node_id));
    const specs = nodeSpecs(
      this.options.seed,
      state.nodes.length,
      state.nodes.length + missing,
      taken,
    );
    this.log(`Registering ${specs.length} node(s) in batches of up to ${NODE_REGISTRATION_MAX}...`);
    for (let offset = 0; offset < specs.length; offset += NODE_REGISTRATION_MAX) {
      if (this.stopping) return;
      const batch = specs.slice(offset, offset + NODE_REGISTRATION_MAX);
      const registered = await admin
        .registerNodes(batch.map(toRegistration))
        .catch((error: unknown) => {
          throw this.registrationError(error);
        });
      const credentials = new Map(registered.map((node) => [node.node_id, node]));
      for (const spec of batch) {
        const issued = credentials.get(spec.node_id);
        if (!issued)
          throw new FleetSetupError(`The server did not return credentials for ${spec.node_id}.`);
        state.nodes.push({
          ...spec,
          mqtt_username: issued.mqtt_username,
          mqtt_password: issued.mqtt_password,
          secret_key: issued.secret_key,
          session: 0,
        });
      }
      // Credentials are shown only once: keep them before anything else can go wrong.
      await this.saveState();
      this.log(`Registered ${offset + batch.length}/${specs.length} node(s).`);
    }
  }

  private registrationError(error: unknown): Error {
    if (error instanceof ApiError && /already registered/i.test(error.description)) {
      return new FleetSetupError(
        `The server already knows these nodes (${error.description}): reuse the --state file of the run that registered them, or pick another --seed.`,
      );
    }
    if (error instanceof ApiError) {
      return new FleetSetupError(
        `Node registration failed (${error.status}: ${error.description}).`,
      );
    }
    return this.setupError(error);
  }

  private async prepareEndUsers(admin: ApiSession | undefined): Promise<void> {
    const state = this.state;
    if (!state || this.options.claimShare <= 0) return;
    const unclaimed = this.nodes.filter((node) => node.claimCandidate && !node.record.claimed_by);
    if (unclaimed.length === 0) return;
    const wanted = endUserCount(this.counters.claimCandidates);
    const toCreate: number[] = [];
    for (let k = 0; k < wanted; k++) {
      const userName = endUserName(this.options.seed, k);
      if (!state.users.some((user) => user.user_name === userName)) toCreate.push(k);
    }
    if (toCreate.length > 0) {
      if (!admin && !this.options.admin) {
        this.log('Claiming skipped: creating end users needs admin credentials.');
        return;
      }
      try {
        admin ??= await this.adminSession('End users need creating');
      } catch (error) {
        this.log(`Claiming skipped: ${(error as Error).message}`);
        return;
      }
      for (const k of toCreate) {
        const userName = endUserName(this.options.seed, k);
        const password = generatePassword();
        try {
          const userId = await admin.createUser(userName, password, ['user']);
          state.users.push({ user_name: userName, password, user_id: userId });
          await this.saveState();
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) {
            this.log(
              'Claiming skipped: the server has no POST /v1/admin/user2 yet (404), so no end users can be created.',
            );
            return;
          }
          this.log(`Could not create end user ${userName}: ${(error as Error).message}`);
        }
      }
    }
    for (const user of state.users) {
      try {
        const session = await this.api.login(user.user_name, user.password);
        const userId = await session.currentUserId();
        if (user.user_id !== userId) {
          user.user_id = userId;
          this.stateDirty = true;
        }
        this.endUsers.push({ userName: user.user_name, userId, session });
      } catch (error) {
        this.log(
          `End user ${user.user_name} cannot sign in (${(error as Error).message}); skipping.`,
        );
      }
    }
    this.claimsEnabled = this.endUsers.length > 0;
    if (this.claimsEnabled) {
      this.log(
        `Claiming ${unclaimed.length} node(s) for ${this.endUsers.length} end user(s) as they come online.`,
      );
    }
  }

  // ---------------------------------------------------------------- running

  private run(): void {
    const now = Date.now();
    this.lastTick = now;
    this.lastSave = now;
    for (const node of this.nodes) this.enqueueConnect(node);
    this.scheduleNextFlap(now);
    this.tick = setInterval(() => this.onTick(), this.options.tickMs);
  }

  private onTick(): void {
    const now = Date.now();
    const rate = this.options.connectRatePerSecond;
    this.tokens = Math.min(
      Math.max(1, rate / 5),
      this.tokens + ((now - this.lastTick) / 1000) * rate,
    );
    this.lastTick = now;

    for (let due = this.timers.popDue(now); due; due = this.timers.popDue(now)) {
      const node = this.nodes[due.item];
      if (!node || node.epoch !== due.tag) continue;
      if (node.status === 'idle') this.enqueueConnect(node);
      else if (node.status === 'online') {
        this.drift(node);
        this.scheduleChange(node, now);
      }
    }

    while (
      this.tokens >= 1 &&
      this.inFlight < this.options.maxConnectsInFlight &&
      this.connectHead < this.connectQueue.length
    ) {
      const node = this.nodes[this.connectQueue[this.connectHead++] as number];
      if (!node || node.status !== 'queued') continue;
      this.tokens -= 1;
      this.connect(node, now);
    }
    if (this.connectHead > 1024 && this.connectHead * 2 > this.connectQueue.length) {
      this.connectQueue = this.connectQueue.slice(this.connectHead);
      this.connectHead = 0;
    }

    while (now >= this.nextFlapAt) {
      this.flapRandomNode();
      this.scheduleNextFlap(this.nextFlapAt);
    }

    for (let due = this.diagTimers.popDue(now); due; due = this.diagTimers.popDue(now)) {
      const node = this.nodes[due.item];
      if (node && node.epoch === due.tag && node.status === 'online')
        this.sendDiagnostics(node, now);
    }

    for (let due = this.claimRetries.popDue(now); due; due = this.claimRetries.popDue(now)) {
      const node = this.nodes[due.item];
      if (node) this.queueClaim(node);
    }
    this.pumpClaims();

    if (this.stateDirty && now - this.lastSave >= this.options.stateSaveIntervalMs) {
      this.lastSave = now;
      void this.saveState();
    }
  }

  private setStatus(node: SimNode, status: NodeStatus): void {
    node.status = status;
    node.epoch++;
  }

  private enqueueConnect(node: SimNode): void {
    this.setStatus(node, 'queued');
    this.connectQueue.push(node.index);
  }

  private scheduleChange(node: SimNode, now: number): void {
    const [min, max] = this.options.paramIntervalMs;
    this.timers.push(now + this.rng.float(min, max), node.index, node.epoch);
  }

  private scheduleNextFlap(from: number): void {
    const perHour = (this.options.flapRatePerHour * this.nodes.length) / 1000;
    this.nextFlapAt =
      perHour > 0 ? from + this.rng.exponential(3_600_000 / perHour) : Number.POSITIVE_INFINITY;
  }

  private flapRandomNode(): void {
    // A few random draws find an online node in any fleet that is mostly up.
    for (let tries = 0; tries < 20 && this.nodes.length > 0; tries++) {
      const node = this.nodes[this.rng.int(0, this.nodes.length - 1)];
      if (node && this.flapNode(node.record.node_id)) return;
    }
  }

  private connect(node: SimNode, now: number): void {
    const record = node.record;
    record.session += 1;
    this.stateDirty = true;
    const session = record.session;
    this.setStatus(node, 'connecting');
    this.inFlight++;
    if (now < node.unreachableUntil) {
      setImmediate(() =>
        this.onClosed(node, session, { kind: 'failed', message: 'network unreachable' }),
      );
      return;
    }
    const willPayload = JSON.stringify(connectionPayload(false, session, now));
    try {
      node.link = this.options.linkFactory(
        {
          url: this.options.mqttUrl,
          clientId: record.node_id,
          username: record.mqtt_username,
          password: record.mqtt_password,
          keepaliveSeconds: KEEPALIVE_SECONDS,
          connectTimeoutMs: CONNECT_TIMEOUT_MS,
          will: {
            topic: nodeTopic(record.node_id, 'connection'),
            payload: willPayload,
            retain: true,
          },
        },
        {
          connected: () => this.onConnected(node, session),
          message: (topic, payload) => this.onMessage(node, session, topic, payload),
          closed: (end) => this.onClosed(node, session, end),
        },
      );
    } catch (error) {
      this.onClosed(node, session, { kind: 'failed', message: (error as Error).message });
    }
  }

  private isCurrent(node: SimNode, session: number): boolean {
    return node.record.session === session && node.status !== 'stopped';
  }

  private onConnected(node: SimNode, session: number): void {
    if (!this.isCurrent(node, session) || node.status !== 'connecting') return;
    const now = Date.now();
    this.inFlight--;
    this.connected++;
    this.counters.connects++;
    node.attempts = 0;
    this.setStatus(node, 'online');
    const id = node.record.node_id;
    node.params ??= initialParams(
      node.profile,
      new Rng(deriveSeed(this.options.seed, node.index, PARAMS_STREAM)),
    );
    // Firmware order (B.3): config first, then the full params, then subscriptions.
    this.publish(node, 'connection', connectionPayload(true, session, now), true);
    this.publish(node, 'config', nodeConfigPayload(node.record, node.profile));
    this.publish(node, 'params/local/init', node.params);
    node.link?.subscribe(
      NODE_SUBSCRIPTIONS.map((suffix) => nodeTopic(id, suffix)),
      (error) => {
        if (error) this.fail(`subscribe ${id}: ${error.message}`);
        else if (this.isCurrent(node, session)) this.otaAfterBoot(node);
      },
    );
    this.scheduleChange(node, now);
    this.scheduleBootReport(node, now);
    this.queueClaim(node);
  }

  private onClosed(node: SimNode, session: number, end: LinkEnd): void {
    if (node.record.session !== session) return;
    node.link = undefined;
    if (node.status === 'online') this.connected--;
    else if (node.status === 'connecting') this.inFlight--;
    if (this.stopping || node.status === 'stopped') {
      this.setStatus(node, 'stopped');
      return;
    }
    const wasDropped = node.dropping;
    const rebooting = node.ota?.phase === 'rebooting' || node.powerCycled;
    node.dropping = false;
    node.powerCycled = false;
    let delay: number;
    if (wasDropped) {
      const [min, max] = rebooting
        ? (this.options.ota?.rebootDelayMs ?? OTA_REBOOT_DELAY_MS)
        : this.options.flapDowntimeMs;
      delay = this.rng.float(min, max);
    } else {
      node.attempts++;
      switch (end.kind) {
        case 'refused':
          this.counters.refused++;
          this.fail(`broker refused ${node.record.node_id}: ${end.message}`);
          this.warnOnce(
            'refused',
            `The broker refuses node credentials (${end.message}). If the server's data was reset, delete the --state file.`,
          );
          delay = this.backoff(node.attempts, 5_000, 120_000);
          break;
        case 'failed':
          this.counters.connectFailures++;
          this.fail(`connect ${node.record.node_id}: ${end.message}`);
          delay = this.backoff(node.attempts, 1_000, 60_000);
          break;
        case 'lost':
        case 'ended':
          this.counters.lost++;
          delay = this.backoff(node.attempts, 1_000, 60_000);
          break;
      }
    }
    this.setStatus(node, 'idle');
    this.timers.push(Date.now() + delay, node.index, node.epoch);
  }

  /** Exponential back-off with ±50 % jitter, so a fleet never retries in lock-step. */
  private backoff(attempt: number, base: number, cap: number): number {
    return Math.min(cap, base * 2 ** Math.min(attempt - 1, 16)) * (0.5 + this.rng.next());
  }

  private onMessage(node: SimNode, session: number, topic: string, payload: Buffer): void {
    if (!this.isCurrent(node, session)) return;
    this.counters.messagesReceived++;
    const parsed = parseNodeTopic(topic);
    if (!parsed || parsed.nodeId !== node.record.node_id) return;
    if (parsed.suffix === 'otaurl') {
      this.counters.otaOffers++;
      this.otaAgent?.offer(this.otaDevice(node), payload);
      return;
    }
    if (parsed.suffix !== 'params/remote' || !node.params) return;
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      return;
    }
    const write = ParamsPayloadSchema.safeParse(json);
    if (!write.success) return;
    const applied = applyRemoteWrite(node.profile, node.params, write.data);
    if (Object.keys(applied).length === 0) return;
    this.counters.remoteWrites++;
    this.publish(node, 'params/local', applied);
  }

  private drift(node: SimNode): void {
    if (!node.params) return;
    const deviceName = node.profile.device.name;
    const values = (node.params[deviceName] ??= {});
    const change = node.profile.drift(this.rng, values);
    // The fleet owns faults: raised and cleared at --fault-rate, skewed by firmware.
    const faultParam = node.profile.faultParam;
    delete change[faultParam];
    const now = Date.now();
    if (node.faultCheckedAt > 0) {
      const current = Number(values[faultParam] ?? 0);
      const next = nextFaultValue(
        this.rng,
        { type: node.profile.type, fwVersion: node.record.fw_version, current },
        now - node.faultCheckedAt,
        this.options.faultRatePerHour,
      );
      if (next !== current) change[faultParam] = next;
    }
    node.faultCheckedAt = now;
    if (Object.keys(change).length === 0) return;
    Object.assign(values, change);
    this.publish(node, 'params/local', { [deviceName]: change });
  }

  private publish(node: SimNode, suffix: IngestSuffix, payload: unknown, retain = false): void {
    this.publishAck(node, suffix, payload, retain).catch(() => undefined);
  }

  private publishAck(
    node: SimNode,
    suffix: IngestSuffix,
    payload: unknown,
    retain = false,
  ): Promise<void> {
    return this.publishBytes(node, suffix, JSON.stringify(payload), retain);
  }

  /** QoS 1 publish of an encoded payload; settles on PUBACK. */
  private publishBytes(
    node: SimNode,
    suffix: IngestSuffix,
    payload: string | Buffer,
    retain = false,
  ): Promise<void> {
    const link = node.link;
    if (!link) return Promise.reject(new Error(`${node.record.node_id} is not connected`));
    const topic = publishTopic(node.record.node_id, suffix, node.basicIngest);
    return new Promise((resolve, reject) => {
      link.publish(topic, payload, retain, (error) => {
        if (error) {
          this.counters.publishFailures++;
          reject(error);
        } else {
          this.counters.messagesSent++;
          resolve();
        }
      });
    });
  }

  // ---------------------------------------------------------------- diagnostics

  /** After a connect: the boot report a little later (firmware sends it once Insights is up). */
  private scheduleBootReport(node: SimNode, now: number): void {
    node.diagUntil = 0;
    // An OTA reboot is a software restart; every other (re)connect counts as a power cycle.
    node.resetReason =
      node.ota?.phase === 'rebooting' ? RESET_REASON.software : RESET_REASON.powerOn;
    if (this.options.diagIntervalSeconds <= 0) return;
    const [min, max] = this.options.diagBootDelayMs;
    this.diagTimers.push(now + this.rng.float(min, max), node.index, node.epoch);
  }

  /**
   * Sends the boot report or the next periodic one and schedules the one after. The first
   * periodic report falls at a random point of the interval, so a fleet that connected together
   * does not report together.
   */
  private sendDiagnostics(node: SimNode, now: number): void {
    const interval = this.options.diagIntervalSeconds;
    const device = this.diagnosticsDevice(node);
    const nowSeconds = Math.floor(now / 1000);
    let report;
    let next: number;
    if (node.diagUntil === 0) {
      report = bootReport(device, node.resetReason, nowSeconds);
      next = now + this.rng.float(0, interval * 1000);
    } else {
      const from = Math.max(node.diagUntil, nowSeconds - interval);
      if (from >= nowSeconds) {
        this.diagTimers.push(now + interval * 1000, node.index, node.epoch);
        return;
      }
      // At most ~30 points per metric, so a long interval still fits one small frame.
      const step = Math.max(60, Math.ceil((nowSeconds - from) / 30));
      report = diagnosticsReport(device, this.rng, from, nowSeconds, step, this.options.diagRates);
      next = now + interval * 1000;
    }
    node.diagUntil = nowSeconds;
    this.diagTimers.push(next, node.index, node.epoch);
    this.publishBytes(node, 'diagnostics/from-node', encodeDiagnostics(device, report)).then(
      () => void this.counters.diagnosticsSent++,
      (error: unknown) =>
        this.fail(`diagnostics ${node.record.node_id}: ${(error as Error).message}`),
    );
  }

  /** The diagnostics builders' view of a node; made per report, so idle nodes carry nothing. */
  private diagnosticsDevice(node: SimNode): DiagnosticsNode {
    return {
      type: node.record.type,
      fwVersion: node.record.fw_version,
      // The C3 is RISC-V; the other profiles' chips (ESP32, ESP32-S3) are Xtensa.
      chip: node.profile.platform === 'esp32c3' ? 'esp32c3' : 'esp32',
      binary: node.diagBinary,
    };
  }

  // ---------------------------------------------------------------- OTA

  /**
   * Once subscribed after a connect: send again the verdicts the broker never acknowledged (in
   * order), report a finished update, then ask for one (as at boot). The question waits for the
   * verdicts' acknowledgement, so the cloud never answers it from a state they are about to change.
   */
  private otaAfterBoot(node: SimNode): void {
    const agent = this.otaAgent;
    if (!agent) return;
    node.verdictDelivery = undefined;
    for (const verdict of [...node.unsentVerdicts]) this.sendVerdict(node, verdict);
    if (node.ota) agent.booted(this.otaDevice(node));
    const session = node.record.session;
    const share = this.options.ota?.fetchShare ?? 1;
    void (node.verdictDelivery ?? Promise.resolve(true)).then((sent) => {
      if (!sent || !this.isCurrent(node, session) || node.status !== 'online' || node.ota) return;
      if (stableRoll(node.record.node_id, 'otafetch') >= share) return;
      this.publish(node, 'otafetch', {
        node_id: node.record.node_id,
        fw_version: node.record.fw_version,
      });
    });
  }

  /** Publishes a kept verdict; it is no longer kept once the broker acknowledged it. */
  private sendVerdict(node: SimNode, verdict: OtaStatusPayload): void {
    const sent = this.publishAck(node, 'otastatus', verdict).then(
      () => {
        const at = node.unsentVerdicts.indexOf(verdict);
        if (at >= 0) node.unsentVerdicts.splice(at, 1);
        return true;
      },
      () => false,
    );
    const earlier = node.verdictDelivery ?? Promise.resolve(true);
    node.verdictDelivery = Promise.all([earlier, sent]).then(([a, b]) => a && b);
  }

  /** The agent's view of a node; made per message, so idle nodes carry nothing. */
  private otaDevice(node: SimNode): OtaDevice {
    const record = node.record;
    return {
      nodeId: record.node_id,
      index: node.index,
      type: record.type,
      model: record.model,
      get fwVersion() {
        return record.fw_version;
      },
      get slot() {
        return node.ota;
      },
      set slot(slot) {
        node.ota = slot;
      },
      report: (status) => this.reportOta(node, status),
      reboot: (fwVersion) => this.rebootNode(node, fwVersion),
      reachable: () => Date.now() >= node.unreachableUntil,
      received: (bytes) => (node.imageBytesReceived += bytes),
    };
  }

  /**
   * Publishes one `otastatus`; settles on PUBACK or failure (never rejects). A final status is
   * kept until acknowledged and sent again after the next connect (firmware keeps it in NVS).
   * With `ota.duplicateShare`, some reports go out a second time a little later.
   */
  private reportOta(node: SimNode, status: OtaStatusPayload): Promise<void> {
    const duplicateShare = this.options.ota?.duplicateShare ?? 0;
    if (duplicateShare > 0 && this.rng.chance(duplicateShare)) {
      const session = node.record.session;
      setTimeout(
        () => {
          if (this.isCurrent(node, session) && node.status === 'online')
            this.publish(node, 'otastatus', status);
        },
        this.rng.float(...(this.options.ota?.duplicateDelayMs ?? DUPLICATE_DELAY_MS)),
      ).unref();
    }
    if (status.status === 'in-progress' || status.status === 'delayed')
      return this.publishAck(node, 'otastatus', status).catch(() => undefined);
    if (status.status === 'success') this.counters.otaSucceeded++;
    else if (status.status === 'failed') this.counters.otaFailed++;
    else this.counters.otaRejected++;
    node.verdict = status;
    node.unsentVerdicts.push(status);
    if (node.unsentVerdicts.length > MAX_KEPT_VERDICTS) node.unsentVerdicts.shift();
    this.sendVerdict(node, status);
    return (node.verdictDelivery ?? Promise.resolve()).then(() => undefined);
  }

  /** The new image is in flash: restart without DISCONNECT (the will fires) and boot it. */
  private rebootNode(node: SimNode, fwVersion: string): void {
    node.record.fw_version = fwVersion;
    this.stateDirty = true;
    // An offline node boots the new image whenever it next connects.
    if (node.status !== 'online' || !node.link) return;
    node.dropping = true;
    node.link.drop();
  }

  // ---------------------------------------------------------------- claims

  private queueClaim(node: SimNode): void {
    if (!this.claimsEnabled || !node.claimCandidate || node.record.claimed_by || node.claiming)
      return;
    if (node.claimAttempts >= CLAIM_MAX_ATTEMPTS) return;
    node.claiming = true;
    this.claimQueue.push(node.index);
  }

  private pumpClaims(): void {
    while (
      this.claimsEnabled &&
      !this.stopping &&
      this.claimWorkers < this.options.claimConcurrency &&
      this.claimQueue.length > 0
    ) {
      const node = this.nodes[this.claimQueue.shift() as number];
      if (!node) continue;
      this.claimWorkers++;
      const task = this.claim(node).finally(() => {
        this.claimWorkers--;
        node.claiming = false;
        this.claimTasks.delete(task);
      });
      this.claimTasks.add(task);
    }
  }

  private async claim(node: SimNode): Promise<void> {
    const owner = this.endUsers[ownerSlot(node.record.node_id, this.endUsers.length)];
    if (!owner || node.status !== 'online') return;
    const signal = this.abort.signal;
    const { node_id: nodeId, secret_key: secretKey } = node.record;
    node.claimAttempts++;
    try {
      const requestId = await owner.session.requestMapping(nodeId, secretKey, signal);
      // The app hands user id and secret to the node (provisioning); the node relays them.
      await withTimeout(
        this.publishAck(node, 'user/mapping', userMappingPayload(nodeId, owner.userId, secretKey)),
        PUBACK_TIMEOUT_MS,
        `no PUBACK for ${nodeId}'s user/mapping`,
      );
      for (let poll = 0; poll < CLAIM_POLLS; poll++) {
        await sleep(this.options.claimPollMs, signal);
        const status = await owner.session.mappingStatus(requestId, signal);
        if (status === 'confirmed') {
          node.record.claimed_by = owner.userName;
          this.counters.claimed++;
          this.stateDirty = true;
          return;
        }
        if (status !== 'requested') throw new Error(`mapping request ${requestId} ${status}`);
      }
      throw new Error(`mapping request ${requestId} not confirmed in time`);
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof ApiError && /mapping/.test(error.path)) {
        // Too many of this user's requests are open (the server caps them, e.g. while the broker
        // is away and nodes cannot confirm): try again later without spending an attempt.
        if (error.status === 429) {
          node.claimAttempts--;
          this.fail(`claim ${nodeId}: deferred, ${error.description}`);
          this.claimRetries.push(Date.now() + this.options.claimRetryMs, node.index, 0);
          return;
        }
        // The server no longer knows this node (an operator deleted it): not this fleet's
        // claiming as a whole, which goes on for the others.
        if (error.status === 404 && error.description === SERVER_MESSAGES.nodeNotFound) {
          node.claimAttempts = CLAIM_MAX_ATTEMPTS;
          this.counters.claimFailures++;
          this.fail(`claim ${nodeId}: ${error.description}`);
          return;
        }
      }
      if (error instanceof ApiError && error.status === 404 && /mapping/.test(error.path)) {
        if (this.claimsEnabled) {
          this.log(
            `Claiming skipped: ${error.method} /v1/user/nodes/mapping answered 404 (${error.description}).`,
          );
        }
        this.claimsEnabled = false;
        return;
      }
      this.counters.claimFailures++;
      this.fail(`claim ${nodeId}: ${(error as Error).message}`);
      if (node.claimAttempts < CLAIM_MAX_ATTEMPTS) {
        this.claimRetries.push(Date.now() + this.options.claimRetryMs, node.index, 0);
      }
    }
  }

  // ---------------------------------------------------------------- stop

  private async shutdown(): Promise<void> {
    this.abort.abort();
    await this.starting?.catch(() => undefined);
    await this.otaAgent?.stop();
    if (this.tick) clearInterval(this.tick);
    this.tick = undefined;
    await Promise.allSettled([...this.claimTasks]);
    const ends: Promise<void>[] = [];
    const now = Date.now();
    for (const node of this.nodes) {
      const link = node.link;
      const online = node.status === 'online';
      this.setStatus(node, 'stopped');
      if (!link) continue;
      // A clean DISCONNECT suppresses the will, so say "offline" on the retained topic first.
      if (online) {
        link.publish(
          nodeTopic(node.record.node_id, 'connection'),
          JSON.stringify(connectionPayload(false, node.record.session, now)),
          true,
          () => undefined,
        );
      }
      ends.push(link.end());
    }
    await Promise.race([Promise.allSettled(ends), sleep(STOP_DEADLINE_MS)]);
    this.connected = 0;
    this.inFlight = 0;
    this.timers.clear();
    this.diagTimers.clear();
    this.claimRetries.clear();
    if (this.state) await this.saveState();
  }

  // ---------------------------------------------------------------- helpers

  /** Queues a write of the state file; writes never overlap. Failures are logged, not thrown. */
  private saveState(): Promise<void> {
    const { statePath } = this.options;
    const state = this.state;
    if (!statePath || !state || !this.ownsStateFile) return Promise.resolve();
    this.stateDirty = false;
    this.saveChain = this.saveChain
      .then(() => saveFleetState(statePath, state))
      .catch((error: unknown) => {
        this.stateDirty = true;
        this.log(`Could not write the state file ${statePath}: ${(error as Error).message}`);
      });
    return this.saveChain;
  }

  private fail(message: string): void {
    this.counters.lastError = message;
  }

  private warnOnce(key: string, line: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.log(line);
  }

  private log(line: string): void {
    this.options.log(line);
  }
}

/** `promise`, or a rejection with `message` once `ms` have passed. */
function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new Error('aborted'));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

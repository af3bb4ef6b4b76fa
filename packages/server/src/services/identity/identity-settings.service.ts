import { createHash, randomBytes } from 'node:crypto';
import {
  DEFAULT_APP_CLIENT_NAME,
  ERROR_CODES,
  IDENTITY_PROVIDER_TYPES,
  MESSAGES,
  REQUIRED_PROVIDER_FIELDS,
  SERVER_MESSAGES,
  SOCIAL_AUTH_PATH,
  type AppClient,
  type AppClientBackup,
  type DeploymentDetails,
  type IdentityProvider,
  type IdentityProviderInput,
  type IdentityProviderType,
  type UserPool,
} from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { AppConfig } from '../../config/env.js';
import type { AppClientsTable, Database, IdentityProvidersTable } from '../../db/schema.js';
import { badRequest, notFound } from '../../errors.js';
import {
  deleteAppClientsOfPool,
  deleteDomain,
  deleteIdentityProvider,
  findAppClientBackup,
  findDomain,
  findDomainByName,
  findIdentityProvider,
  insertAppClients,
  listAppClients,
  listIdentityProviders,
  updateAppClient,
  upsertAppClientBackup,
  upsertDomain,
  upsertIdentityProvider,
} from '../../repositories/identity.repository.js';
import { getOrCreateSecret } from '../../repositories/secret.repository.js';
import { maskSecret, type SecretBox } from '../crypto/secret-box.js';
import { DEFAULT_ISSUERS, type ProviderSettings } from './identity-provider-clients.js';
import { transactionWithRetry } from '../../db/transaction-retry.js';

const StringListSchema = z.array(z.string());
const BackupSchema = z.array(
  z.object({
    client_id: z.string(),
    client_name: z.string(),
    callback_urls: z.array(z.string()),
    identity_providers: z.array(z.string()),
    created_at: z.number(),
    updated_at: z.number(),
  }),
);

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The associated data that binds a sealed provider secret to its row. */
function secretContext(pool: string, type: string): string {
  return `identity_providers:${pool}:${type}`;
}

function parseList(json: string): string[] {
  return StringListSchema.parse(JSON.parse(json));
}

/** Whether the text is the masked value the list answered with (an edit that kept the secret). */
function isMasked(value: string | undefined): boolean {
  return value !== undefined && value.startsWith('••••');
}

/**
 * Identity settings of the two user pools (ADR 12): social identity providers with sealed
 * secrets, app clients whose callback URLs are the exact allow-list of sign-in redirects, the
 * pool's domain, one backup of the app clients, and the read-only deployment details.
 */
export class IdentitySettingsService {
  /** The port the embedded broker really listens on (MQTT_PORT=0 picks a free one). */
  private brokerPort: number | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox,
    private readonly config: AppConfig,
    private readonly version: string,
  ) {}

  /** Main tells the service where the embedded broker ended up listening. */
  setBrokerPort(port: number): void {
    this.brokerPort = port;
  }

  /**
   * The broker devices connect to: the external broker's URL without Fleetdeck's own credentials,
   * or the embedded broker on the public host and its real port.
   */
  private mqttEndpoint(): string {
    if (this.config.mqttUrl) {
      const url = new URL(this.config.mqttUrl);
      url.username = '';
      url.password = '';
      return url.toString().replace(/\/$/, '');
    }
    const host = new URL(this.config.publicUrl).hostname;
    return `mqtt://${host}:${this.brokerPort ?? this.config.mqttPort}`;
  }

  /** The pool's providers, secrets masked. */
  async listProviders(
    pool: UserPool,
  ): Promise<Partial<Record<IdentityProviderType, IdentityProvider>>> {
    const rows = await listIdentityProviders(this.db, pool);
    const result: Partial<Record<IdentityProviderType, IdentityProvider>> = {};
    for (const row of rows) {
      const type = row.provider_type as IdentityProviderType;
      if (!IDENTITY_PROVIDER_TYPES.includes(type)) continue;
      result[type] = this.present(row);
    }
    return result;
  }

  private present(row: IdentityProvidersTable): IdentityProvider {
    const type = row.provider_type as IdentityProviderType;
    let masked = '••••';
    try {
      masked = maskSecret(this.box.open(row.secret_sealed, secretContext(row.pool, type)));
    } catch {
      // A secret that no longer opens (key replaced) still lists; it must be entered again.
    }
    return {
      provider_type: type,
      client_id: row.client_id,
      ...(type === 'SignInWithApple' ? { private_key: masked } : { client_secret: masked }),
      ...(row.provider_name ? { provider_name: row.provider_name } : {}),
      ...(row.key_id ? { key_id: row.key_id } : {}),
      ...(row.team_id ? { team_id: row.team_id } : {}),
      callback_urls: parseList(row.callback_urls),
      enabled: row.enabled === 1,
      ...(row.issuer ? { issuer: row.issuer } : {}),
      updated_at: Number(row.updated_at),
    };
  }

  /**
   * Configures (`mode` create) or edits a provider. Every field the type needs must be given
   * ('Please provide all details.'); on an edit a left-out or masked secret keeps the stored one.
   * A newly configured provider joins the pool's default app client, and callback URLs new to the
   * provider in this save are added to the client's; nothing else on the client changes.
   */
  async saveProvider(
    pool: UserPool,
    input: IdentityProviderInput,
    mode: 'create' | 'edit',
  ): Promise<string> {
    const type = input.provider_type;
    const existing = await findIdentityProvider(this.db, pool, type);
    if (mode === 'edit' && !existing)
      throw badRequest(
        SERVER_MESSAGES.identityProviderNotFound,
        ERROR_CODES.identityProviderNotFound,
      );
    const secretField = type === 'SignInWithApple' ? 'private_key' : 'client_secret';
    const givenSecret = input[secretField];
    const keepSecret =
      existing !== undefined && (givenSecret === undefined || isMasked(givenSecret));
    for (const name of REQUIRED_PROVIDER_FIELDS[type]) {
      if (name === secretField && keepSecret) continue;
      const value = input[name];
      if (value === undefined || (name === secretField && isMasked(value)))
        throw badRequest(MESSAGES.provideAllDetails, ERROR_CODES.identityProviderInvalid);
    }
    const now = nowSeconds();
    const sealed =
      keepSecret || givenSecret === undefined
        ? (existing?.secret_sealed ?? '')
        : this.box.seal(givenSecret, secretContext(pool, type));
    const row: IdentityProvidersTable = {
      pool,
      provider_type: type,
      client_id: input.client_id ?? '',
      secret_sealed: sealed,
      provider_name: type === 'SignInWithApple' ? (input.provider_name ?? null) : null,
      key_id: type === 'SignInWithApple' ? (input.key_id ?? null) : null,
      team_id: type === 'SignInWithApple' ? (input.team_id ?? null) : null,
      callback_urls: JSON.stringify(input.callback_urls),
      enabled: (input.enabled ?? (existing ? existing.enabled === 1 : true)) ? 1 : 0,
      issuer: input.issuer ?? null,
      created_at: existing ? Number(existing.created_at) : now,
      updated_at: now,
    };
    const clients = await this.appClientRows(pool);
    await transactionWithRetry(this.db, async (trx) => {
      await upsertIdentityProvider(trx, row);
      const client = clients[0];
      // The client's lists are the exact allow-list (Cognito Configurations edits them). The editor
      // sends the provider's stored URLs back on every edit, so merging them all would bring back
      // a URL or provider someone removed from the client: only what this save adds goes on.
      const before = new Set(existing ? parseList(existing.callback_urls) : []);
      const addedUrls = input.callback_urls.filter((url) => !before.has(url));
      if (client && (addedUrls.length > 0 || !existing)) {
        const urls = [...new Set([...parseList(client.callback_urls), ...addedUrls])];
        const providers = existing
          ? parseList(client.identity_providers)
          : [...new Set([...parseList(client.identity_providers), type])];
        await updateAppClient(trx, pool, client.client_id, {
          callback_urls: JSON.stringify(urls),
          identity_providers: JSON.stringify(providers),
          updated_at: now,
        });
      }
    });
    return existing ? MESSAGES.identityProviderEdited : MESSAGES.identityProviderConfigured;
  }

  /** Removes a provider and takes it off every app client of the pool. */
  async deleteProvider(pool: UserPool, type: IdentityProviderType): Promise<void> {
    const clients = await this.appClientRows(pool);
    const now = nowSeconds();
    await transactionWithRetry(this.db, async (trx) => {
      if (!(await deleteIdentityProvider(trx, pool, type)))
        throw badRequest(
          SERVER_MESSAGES.identityProviderNotFound,
          ERROR_CODES.identityProviderNotFound,
        );
      for (const client of clients) {
        const providers = parseList(client.identity_providers).filter((p) => p !== type);
        await updateAppClient(trx, pool, client.client_id, {
          callback_urls: client.callback_urls,
          identity_providers: JSON.stringify(providers),
          updated_at: now,
        });
      }
    });
  }

  /** The user pool id Fleetdeck shows for a pool: stable per install. */
  async userPoolId(pool: UserPool): Promise<string> {
    const install = await this.installId();
    const digest = createHash('sha256').update(`${install}:${pool}`).digest('hex').slice(0, 9);
    return `${this.config.region}_${digest}`;
  }

  private installId(): Promise<string> {
    // Twelve digits, the shape of the account id RainMaker dashboards show.
    return getOrCreateSecret(
      this.db,
      'install_id',
      () =>
        Promise.resolve(
          Array.from(randomBytes(12), (byte) => String(byte % 10))
            .join('')
            .replace(/^0/, '1'),
        ),
      nowSeconds(),
    );
  }

  /** The pool's app clients; the default 'fleetdeck-dashboard' client is created on first read. */
  private async appClientRows(pool: UserPool): Promise<AppClientsTable[]> {
    const rows = await listAppClients(this.db, pool);
    if (rows.length > 0) return rows;
    const clientId = await getOrCreateSecret(
      this.db,
      `app_client_id_${pool}`,
      () => Promise.resolve(randomBytes(13).toString('hex').slice(0, 26)),
      nowSeconds(),
    );
    const now = nowSeconds();
    await this.db
      .insertInto('app_clients')
      .values({
        client_id: clientId,
        pool,
        client_name: DEFAULT_APP_CLIENT_NAME,
        callback_urls: JSON.stringify([`${this.config.publicUrl}${SOCIAL_AUTH_PATH}`]),
        identity_providers: JSON.stringify([]),
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('client_id').doNothing())
      .execute();
    return listAppClients(this.db, pool);
  }

  /** The pool's app clients as the API shows them. */
  async listAppClients(pool: UserPool): Promise<AppClient[]> {
    const poolId = await this.userPoolId(pool);
    return (await this.appClientRows(pool)).map((row) => ({
      user_poolid: poolId,
      client_id: row.client_id,
      client_name: row.client_name,
      callback_urls: parseList(row.callback_urls),
      identity_providers: parseList(row.identity_providers),
    }));
  }

  /** The client sign-ins of a pool go through: its first (the dashboard's) app client. */
  async defaultAppClient(pool: UserPool): Promise<AppClient> {
    const [client] = await this.listAppClients(pool);
    if (!client) throw new Error('the default app client is missing');
    return client;
  }

  /** Sets one client's callback URLs and providers; each provider must be configured. */
  async updateAppClient(
    pool: UserPool,
    clientId: string,
    callbackUrls: readonly string[],
    providers: readonly IdentityProviderType[],
  ): Promise<void> {
    await this.appClientRows(pool);
    const configured = new Set(
      (await listIdentityProviders(this.db, pool)).map((p) => p.provider_type),
    );
    if (providers.some((provider) => !configured.has(provider)))
      throw badRequest(
        SERVER_MESSAGES.identityProviderNotFound,
        ERROR_CODES.identityProviderNotFound,
      );
    const updated = await updateAppClient(this.db, pool, clientId, {
      callback_urls: JSON.stringify(callbackUrls),
      identity_providers: JSON.stringify(providers),
      updated_at: nowSeconds(),
    });
    if (!updated) throw notFound(SERVER_MESSAGES.appClientNotFound, ERROR_CODES.appClientNotFound);
  }

  /** The pool's domain, or null. */
  async domain(pool: UserPool): Promise<string | null> {
    return (await findDomain(this.db, pool))?.domain_name ?? null;
  }

  /** Sets the pool's domain (replacing its old one); a name can belong to one pool only. */
  async setDomain(pool: UserPool, domainName: string): Promise<void> {
    const owner = await findDomainByName(this.db, domainName);
    if (owner && owner.pool !== pool)
      throw badRequest(SERVER_MESSAGES.domainInOtherPool, ERROR_CODES.domainInOtherPool);
    await upsertDomain(this.db, pool, domainName, nowSeconds());
  }

  /** Deletes the pool's domain. */
  async deleteDomain(pool: UserPool): Promise<void> {
    if (!(await deleteDomain(this.db, pool)))
      throw badRequest(SERVER_MESSAGES.domainNotConfigured, ERROR_CODES.domainNotConfigured);
  }

  /** The stored backup of a pool's app clients; 404 'No cognito app client backup found'. */
  async backup(pool: UserPool): Promise<AppClientBackup> {
    const row = await findAppClientBackup(this.db, pool);
    if (!row) throw notFound(MESSAGES.noCognitoBackup, ERROR_CODES.appClientBackupNotFound);
    const poolId = await this.userPoolId(pool);
    const clients = BackupSchema.parse(JSON.parse(row.app_clients));
    return {
      user_poolid: poolId,
      created_at: row.created_at,
      client_count: row.client_count,
      app_clients: clients.map((client) => ({
        user_poolid: poolId,
        client_id: client.client_id,
        client_name: client.client_name,
        callback_urls: client.callback_urls,
        identity_providers: client.identity_providers,
      })),
    };
  }

  /** Stores the pool's app clients as they are now (one backup per pool; a new one replaces it). */
  async takeBackup(pool: UserPool): Promise<void> {
    const rows = await this.appClientRows(pool);
    const snapshot = rows.map((row) => ({
      client_id: row.client_id,
      client_name: row.client_name,
      callback_urls: parseList(row.callback_urls),
      identity_providers: parseList(row.identity_providers),
      created_at: Number(row.created_at),
      updated_at: Number(row.updated_at),
    }));
    await upsertAppClientBackup(
      this.db,
      pool,
      JSON.stringify(snapshot),
      snapshot.length,
      nowSeconds(),
    );
  }

  /** Puts the backup back exactly: the pool's clients become the backed-up ones, nothing else. */
  async restoreBackup(pool: UserPool): Promise<void> {
    const row = await findAppClientBackup(this.db, pool);
    if (!row) throw notFound(MESSAGES.noCognitoBackup, ERROR_CODES.appClientBackupNotFound);
    const clients = BackupSchema.parse(JSON.parse(row.app_clients));
    await transactionWithRetry(this.db, async (trx) => {
      await deleteAppClientsOfPool(trx, pool);
      await insertAppClients(
        trx,
        clients.map((client) => ({
          client_id: client.client_id,
          pool,
          client_name: client.client_name,
          callback_urls: JSON.stringify(client.callback_urls),
          identity_providers: JSON.stringify(client.identity_providers),
          created_at: client.created_at,
          updated_at: client.updated_at,
        })),
      );
    });
  }

  /** Deployment Details: facts of the running configuration. */
  async deploymentDetails(pool: UserPool): Promise<DeploymentDetails> {
    const client = await this.defaultAppClient(pool);
    return {
      account_id: await this.installId(),
      region: this.config.region,
      build_info: `Fleetdeck server ${this.version} (Node.js ${process.versions.node}, ${
        this.config.databaseUrl ? 'PostgreSQL' : 'SQLite'
      })`,
      base_url: this.config.publicUrl,
      mqtt_endpoint: this.mqttEndpoint(),
      user_pool_id: await this.userPoolId(pool),
      app_client_id: client.client_id,
      oauth_domain: await this.domain(pool),
      active_pool: pool === this.config.userPool,
    };
  }

  /**
   * The providers the dashboard's login page offers: those a sign-in accepts, but none in customer
   * mode, which hides social sign-in on the dashboard (access §6; the pool's apps still use them).
   */
  async availableProviders(): Promise<IdentityProviderType[]> {
    if (this.config.deploymentMode === 'customer') return [];
    return this.signInProviders();
  }

  /**
   * The providers a sign-in through the active pool accepts right now, in a fixed order: configured,
   * enabled, on the default app client, with a domain configured (in either deployment mode).
   */
  async signInProviders(): Promise<IdentityProviderType[]> {
    const pool = this.config.userPool;
    if ((await this.domain(pool)) === null) return [];
    const client = await this.defaultAppClient(pool);
    const rows = await listIdentityProviders(this.db, pool);
    return IDENTITY_PROVIDER_TYPES.filter((type) =>
      rows.some(
        (row) =>
          row.provider_type === type &&
          row.enabled === 1 &&
          client.identity_providers.includes(type),
      ),
    );
  }

  /** A provider's settings with its secret opened, for the sign-in. */
  async providerSettings(
    pool: UserPool,
    type: IdentityProviderType,
  ): Promise<ProviderSettings | undefined> {
    const row = await findIdentityProvider(this.db, pool, type);
    if (!row) return undefined;
    return {
      type,
      clientId: row.client_id,
      secret: this.box.open(row.secret_sealed, secretContext(pool, type)),
      keyId: row.key_id ?? undefined,
      teamId: row.team_id ?? undefined,
      issuer: row.issuer ?? DEFAULT_ISSUERS[type],
    };
  }
}

import fs from 'node:fs/promises';
import path from 'node:path';
import {
  SETTINGS_ERROR_CODES,
  SETTINGS_MESSAGES,
  WEB_BUILD_VERSION_FILE,
  WebBuildVersionSchema,
  type DashboardUpdateCheck,
} from '@fleetdeck/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import { writeConfigValue } from '../../repositories/settings.repository.js';

/**
 * The dashboard update check: the web build writes `version.json` next to index.html and the SPA
 * carries the same string; when the server serves a build other than the open tab's, the tab is
 * out of date (the server always serves the build it has, so "other" means "newer" here).
 */
export class DashboardUpdateService {
  private cached: { mtimeMs: number; version: string } | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly webDistDir: string,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The version of the web build on disk, or undefined when there is none. */
  async servedVersion(): Promise<string | undefined> {
    const file = path.join(this.webDistDir, WEB_BUILD_VERSION_FILE);
    try {
      const stat = await fs.stat(file);
      if (this.cached?.mtimeMs === stat.mtimeMs) return this.cached.version;
      const parsed = WebBuildVersionSchema.safeParse(JSON.parse(await fs.readFile(file, 'utf8')));
      if (!parsed.success) return undefined;
      this.cached = { mtimeMs: stat.mtimeMs, version: parsed.data.version };
      return parsed.data.version;
    } catch {
      return undefined;
    }
  }

  /** Compares the open tab's version with the served build. */
  async check(currentVersion: string): Promise<DashboardUpdateCheck> {
    const served = await this.servedVersion();
    if (served === undefined) return { version: currentVersion, status: 'unknown' };
    return {
      version: served,
      status: served === currentVersion ? 'up_to_date' : 'update_available',
    };
  }

  /** Records that a user moved to the served build; refuses any other version. */
  async acknowledge(version: string, userId: string): Promise<void> {
    const served = await this.servedVersion();
    if (served === undefined || served !== version)
      throw badRequest(
        SETTINGS_MESSAGES.dashboardVersionInvalid,
        SETTINGS_ERROR_CODES.dashboardVersionInvalid,
      );
    const now = Math.floor(this.clock() / 1000);
    await writeConfigValue(
      this.db,
      'dashboard_update',
      JSON.stringify({ version, user_id: userId, at: now }),
      now,
    );
  }
}

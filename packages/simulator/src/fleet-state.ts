import fs from 'node:fs/promises';
import path from 'node:path';
import { NodeTypeSchema } from '@fleetdeck/contract';
import { z } from 'zod';

/**
 * The state file (`--state`): node identities and their one-time credentials, connection session
 * counters, claims and the simulated end users. It is what lets a second run reuse the fleet the
 * first run registered. It holds secrets, so it is written with mode 0600.
 */

const StateNodeSchema = z.object({
  node_id: z.string().min(1),
  name: z.string(),
  type: NodeTypeSchema,
  model: z.string(),
  fw_version: z.string(),
  tags: z.array(z.string()),
  mqtt_username: z.string(),
  mqtt_password: z.string(),
  secret_key: z.string(),
  /** The last connection session used; the next connect uses session + 1. */
  session: z.number().int().nonnegative(),
  /** User name of the end user the node is mapped to, once the server confirmed it. */
  claimed_by: z.string().optional(),
});
/** One registered node in the state file. */
export type StateNode = z.infer<typeof StateNodeSchema>;

const StateUserSchema = z.object({
  user_name: z.string(),
  password: z.string(),
  user_id: z.string().optional(),
});
/** One simulated end user in the state file. */
export type StateUser = z.infer<typeof StateUserSchema>;

/** The whole state file. */
export const FleetStateSchema = z.object({
  version: z.literal(1),
  seed: z.number().int().nonnegative(),
  nodes: z.array(StateNodeSchema),
  users: z.array(StateUserSchema),
});
export type FleetState = z.infer<typeof FleetStateSchema>;

/** The state file exists but cannot be used. */
export class StateFileError extends Error {
  constructor(file: string, reason: string) {
    super(`state file ${file} ${reason}`);
    this.name = 'StateFileError';
  }
}

/** Reads the state file; undefined when it does not exist yet. */
export async function loadFleetState(file: string): Promise<FleetState | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError(file, `cannot be read: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new StateFileError(file, 'is not valid JSON (move it away to start a new fleet)');
  }
  const parsed = FleetStateSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new StateFileError(
      file,
      `is not a simulator state file (${issue?.path.join('.') || 'root'}: ${issue?.message ?? 'invalid'})`,
    );
  }
  return parsed.data;
}

/** Writes the state file atomically (temporary file, then rename), readable only by its owner. */
export async function saveFleetState(file: string, state: FleetState): Promise<void> {
  await fs.mkdir(path.dirname(path.resolve(file)), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temporary, `${JSON.stringify(state, null, 1)}\n`, { mode: 0o600 });
  await fs.rename(temporary, file);
}

import { parseArgs } from 'node:util';
import { z } from 'zod';
import { DEFAULT_DIAGNOSTICS_RATES } from './diagnostics.js';
import { DEFAULT_FAULT_RATE_PER_NODE_HOUR } from './faults.js';
import type { FleetOptions } from './fleet.js';

/** The usage text of `fleetdeck-simulate`. */
export const USAGE = `Usage: npm run simulate -- --server <url> --nodes <n> [options]

Simulates a fleet of appliances that register with a Fleetdeck server and speak its MQTT protocol.
Nodes answer OTA offers like firmware: they verify each image with the server's signing key
(fetched once with the admin credentials; without it, offers are only counted). Each node sends a
diagnostics report (logs, crashes, metrics, variables) soon after connecting and then periodically.

  --server <url>            Fleetdeck HTTP API, e.g. http://127.0.0.1:8080 (required)
  --nodes <n>               number of nodes, 1-100000 (required)
  --mqtt <url>              MQTT broker (default mqtt://127.0.0.1:1883)
  --admin-email <e>         super admin that registers nodes and creates end users
  --admin-password <p>      (or set FLEETDECK_ADMIN_EMAIL / FLEETDECK_ADMIN_PASSWORD)
  --state <file>            keep node credentials here and reuse them on the next run
  --seed <n>                same seed, same fleet (default 1)
  --flap-rate <n>           connection drops per hour per 1000 nodes (default 3)
  --fault-rate <x>          appliance faults raised per node per hour (default 0.03)
  --claim-share <x>         share of nodes claimed by simulated end users, 0-1 (default 0.3)
  --basic-ingest-share <x>  share of nodes publishing on $aws/rules/... topics, 0-1 (default 0.5)
  --connect-rate <n>        new MQTT connections per second (default 200)
  --ota-fail-rate <x>       share of good OTA updates that still end "failed", 0-1 (default 0)
  --ota-progress-step <n>   report download progress every n percent, 1-100 (default 25)
  --ota-fetch-share <x>     share of nodes that send otafetch after connecting, 0-1 (default 1)
  --diag-interval <s>       seconds between a node's diagnostics reports, 0 = none (default 300)
  --diag-binary-share <x>   share of nodes sending ESP Insights binary frames, 0-1 (default 0.2)
  --diag-crash-rate <x>     chance that a diagnostics report carries a crash, 0-1 (default 0.002)
  --help                    show this text`;

/** A bad command line; the message is one line naming the option. */
export class ArgsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArgsError';
  }
}

/** What the command line asks for. */
export type CliCommand =
  | { kind: 'help' }
  | {
      kind: 'run';
      options: Required<Pick<FleetOptions, 'serverUrl' | 'mqttUrl' | 'nodes' | 'seed'>> &
        Pick<
          FleetOptions,
          | 'admin'
          | 'statePath'
          | 'flapRatePerHour'
          | 'faultRatePerHour'
          | 'claimShare'
          | 'basicIngestShare'
          | 'connectRatePerSecond'
          | 'diagIntervalSeconds'
          | 'diagBinaryShare'
          | 'diagRates'
          | 'ota'
        >;
    };

const OPTIONS = {
  server: { type: 'string' },
  nodes: { type: 'string' },
  mqtt: { type: 'string' },
  'admin-email': { type: 'string' },
  'admin-password': { type: 'string' },
  state: { type: 'string' },
  seed: { type: 'string' },
  'flap-rate': { type: 'string' },
  'fault-rate': { type: 'string' },
  'claim-share': { type: 'string' },
  'basic-ingest-share': { type: 'string' },
  'connect-rate': { type: 'string' },
  'ota-fail-rate': { type: 'string' },
  'ota-progress-step': { type: 'string' },
  'ota-fetch-share': { type: 'string' },
  'diag-interval': { type: 'string' },
  'diag-binary-share': { type: 'string' },
  'diag-crash-rate': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** A numeric option: digits (with a decimal point unless whole) between bounds. */
function numberText(opts: { min: number; max: number; whole: boolean }) {
  const message = `must be ${opts.whole ? 'a whole number' : 'a number'} from ${opts.min} to ${opts.max}`;
  return z
    .string()
    .trim()
    .regex(opts.whole ? /^\d+$/ : /^(\d+(\.\d*)?|\.\d+)$/, { error: message })
    .transform(Number)
    .pipe(z.number().min(opts.min, { error: message }).max(opts.max, { error: message }));
}

/** The same, optional, with a default. */
function numberOption(opts: { min: number; max: number; whole: boolean; fallback: number }) {
  return numberText(opts)
    .optional()
    .transform((value) => value ?? opts.fallback);
}

const ArgsSchema = z
  .object({
    server: z
      .string({ error: 'is required' })
      .trim()
      .pipe(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })),
    nodes: z
      .string({ error: 'is required' })
      .pipe(numberText({ min: 1, max: 100_000, whole: true })),
    mqtt: z
      .string()
      .trim()
      .regex(/^(mqtts?|wss?):\/\/[^/\s]+/, {
        error: 'must be an mqtt://, mqtts://, ws:// or wss:// URL',
      })
      .default('mqtt://127.0.0.1:1883'),
    'admin-email': z.string().trim().min(1, { error: 'must not be empty' }).optional(),
    'admin-password': z.string().min(1, { error: 'must not be empty' }).optional(),
    state: z.string().trim().min(1, { error: 'must name a file' }).optional(),
    seed: numberOption({ min: 0, max: 4_294_967_295, whole: true, fallback: 1 }),
    'flap-rate': numberOption({ min: 0, max: 100_000, whole: false, fallback: 3 }),
    'fault-rate': numberOption({
      min: 0,
      max: 100,
      whole: false,
      fallback: DEFAULT_FAULT_RATE_PER_NODE_HOUR,
    }),
    'claim-share': numberOption({ min: 0, max: 1, whole: false, fallback: 0.3 }),
    'basic-ingest-share': numberOption({ min: 0, max: 1, whole: false, fallback: 0.5 }),
    'connect-rate': numberOption({ min: 1, max: 100_000, whole: true, fallback: 200 }),
    'ota-fail-rate': numberOption({ min: 0, max: 1, whole: false, fallback: 0 }),
    'ota-progress-step': numberOption({ min: 1, max: 100, whole: true, fallback: 25 }),
    'ota-fetch-share': numberOption({ min: 0, max: 1, whole: false, fallback: 1 }),
    'diag-interval': numberOption({ min: 0, max: 86_400, whole: true, fallback: 300 }),
    'diag-binary-share': numberOption({ min: 0, max: 1, whole: false, fallback: 0.2 }),
    'diag-crash-rate': numberOption({
      min: 0,
      max: 1,
      whole: false,
      fallback: DEFAULT_DIAGNOSTICS_RATES.crash,
    }),
  })
  .superRefine((args, ctx) => {
    if ((args['admin-email'] === undefined) !== (args['admin-password'] === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [args['admin-email'] === undefined ? 'admin-email' : 'admin-password'],
        message: 'is needed together with --admin-email/--admin-password',
      });
    }
  });

/**
 * Parses the command line (and the two admin variables of `env` as fallbacks, so the password
 * need not show in the process list). Throws ArgsError with a one-line reason.
 */
export function parseCliArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): CliCommand {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: OPTIONS,
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    // node:util explains over several lines; the first one names the problem.
    const first = (error as Error).message.split('\n')[0] ?? 'invalid arguments';
    throw new ArgsError(first.replace(/\. This command does not take positional arguments$/, ''));
  }
  if (values.help === true) return { kind: 'help' };
  const parsed = ArgsSchema.safeParse({
    ...values,
    'admin-email': values['admin-email'] ?? (env.FLEETDECK_ADMIN_EMAIL || undefined),
    'admin-password': values['admin-password'] ?? (env.FLEETDECK_ADMIN_PASSWORD || undefined),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const option = issue?.path[0];
    throw new ArgsError(
      `${typeof option === 'string' ? `--${option}` : 'arguments'} ${issue?.message ?? 'is invalid'}`,
    );
  }
  const args = parsed.data;
  const email = args['admin-email'];
  const password = args['admin-password'];
  return {
    kind: 'run',
    options: {
      serverUrl: args.server.replace(/\/+$/, ''),
      mqttUrl: args.mqtt,
      nodes: args.nodes,
      seed: args.seed,
      admin: email !== undefined && password !== undefined ? { email, password } : undefined,
      statePath: args.state,
      flapRatePerHour: args['flap-rate'],
      faultRatePerHour: args['fault-rate'],
      claimShare: args['claim-share'],
      basicIngestShare: args['basic-ingest-share'],
      connectRatePerSecond: args['connect-rate'],
      diagIntervalSeconds: args['diag-interval'],
      diagBinaryShare: args['diag-binary-share'],
      diagRates: { ...DEFAULT_DIAGNOSTICS_RATES, crash: args['diag-crash-rate'] },
      // A server without OTA yet (or a run without admin credentials) still gets a fleet.
      ota: {
        failRate: args['ota-fail-rate'],
        progressStepPercent: args['ota-progress-step'],
        fetchShare: args['ota-fetch-share'],
        whenKeyUnavailable: 'skip',
      },
    },
  };
}

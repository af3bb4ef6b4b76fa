#!/usr/bin/env node
/**
 * `npm run simulate -- --server <url> --nodes <n> …`: runs a simulated fleet until SIGINT or
 * SIGTERM, printing one status line every 10 seconds.
 */
import { ArgsError, parseCliArgs, USAGE } from './cli-args.js';
import { Fleet, FleetSetupError, type FleetStats } from './fleet.js';
import { StateFileError } from './fleet-state.js';

const STATUS_INTERVAL_MS = 10_000;
const PREFIX = 'fleetdeck-simulate:';

function statusLine(
  stats: FleetStats,
  sentPerSecond: number,
  newError: string | undefined,
): string {
  const parts = [
    `${stats.connected}/${stats.total} connected`,
    `${stats.messagesSent.toLocaleString('en-US')} messages sent (${sentPerSecond.toFixed(1)}/s)`,
  ];
  if (stats.claimCandidates > 0) parts.push(`${stats.claimed}/${stats.claimCandidates} claimed`);
  if (stats.diagnosticsSent > 0)
    parts.push(`${stats.diagnosticsSent.toLocaleString('en-US')} diagnostics reports`);
  if (stats.flaps > 0) parts.push(`${stats.flaps} flaps`);
  if (stats.refused > 0) parts.push(`${stats.refused} refused`);
  if (stats.otaOffers > 0) {
    parts.push(
      `OTA ${stats.otaOffers} offers: ${stats.otaSucceeded} updated, ${stats.otaFailed} failed, ${stats.otaRejected} rejected`,
    );
  }
  if (newError) parts.push(`last error: ${newError}`);
  return `[sim] ${parts.join(', ')}`;
}

/** An error message with node ids and request ids blanked, to tell kinds of failure apart. */
function errorKind(message: string | undefined): string | undefined {
  return message
    ?.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<request>')
    .replace(/\b[0-9A-F]{12}\b/g, '<node>');
}

async function main(): Promise<void> {
  let command;
  try {
    command = parseCliArgs(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof ArgsError)) throw error;
    console.error(`${PREFIX} ${error.message} (see --help)`);
    process.exit(2);
  }
  if (command.kind === 'help') {
    console.log(USAGE);
    return;
  }
  const options = command.options;
  const fleet = new Fleet({ ...options, log: (line) => console.log(`[sim] ${line}`) });

  const timers: { status?: NodeJS.Timeout } = {};
  let stopping = false;
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    clearInterval(timers.status);
    void fleet.stop().then(
      () => {
        const stats = fleet.stats();
        console.log(
          `[sim] stopped: ${stats.messagesSent.toLocaleString('en-US')} messages sent, ${stats.claimed} claimed${options.statePath ? `; state in ${options.statePath}` : ''}`,
        );
        process.exit(code);
      },
      (error: unknown) => {
        console.error(`${PREFIX} stopping failed: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  };
  // A terminal's Ctrl+C reaches both us and a parent that forwards it; one stop is enough.
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));

  console.log(
    `[sim] ${options.nodes} node(s), seed ${options.seed}, server ${options.serverUrl}, MQTT ${options.mqttUrl}`,
  );
  try {
    await fleet.start();
  } catch (error) {
    if (error instanceof FleetSetupError || error instanceof StateFileError) {
      console.error(`${PREFIX} ${error.message}`);
      stopping = true;
      await fleet.stop();
      process.exit(1);
    }
    throw error;
  }
  if (stopping) return;

  let lastSent = 0;
  let lastError: string | undefined;
  let lastAt = Date.now();
  timers.status = setInterval(() => {
    const stats = fleet.stats();
    const now = Date.now();
    const rate = ((stats.messagesSent - lastSent) * 1000) / Math.max(1, now - lastAt);
    // The same failure on another node is no news; a different failure is.
    const newError =
      errorKind(stats.lastError) !== errorKind(lastError) ? stats.lastError : undefined;
    console.log(statusLine(stats, rate, newError));
    lastSent = stats.messagesSent;
    lastError = stats.lastError;
    lastAt = now;
  }, STATUS_INTERVAL_MS);
}

main().catch((error: unknown) => {
  console.error(`${PREFIX} ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

import { describe, expect, it } from 'vitest';
import { ArgsError, parseCliArgs, USAGE } from './cli-args.js';

const base = ['--server', 'http://127.0.0.1:8080', '--nodes', '200'];

function errorOf(argv: string[], env: Record<string, string> = {}): string {
  try {
    parseCliArgs(argv, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ArgsError);
    return (error as Error).message;
  }
  throw new Error('expected an ArgsError');
}

describe('command line', () => {
  it('fills in the defaults', () => {
    expect(parseCliArgs(base)).toEqual({
      kind: 'run',
      options: {
        serverUrl: 'http://127.0.0.1:8080',
        mqttUrl: 'mqtt://127.0.0.1:1883',
        nodes: 200,
        seed: 1,
        admin: undefined,
        statePath: undefined,
        flapRatePerHour: 3,
        faultRatePerHour: 0.03,
        claimShare: 0.3,
        basicIngestShare: 0.5,
        connectRatePerSecond: 200,
        diagIntervalSeconds: 300,
        diagBinaryShare: 0.2,
        diagRates: { crash: 0.002, warning: 0.05, error: 0.02 },
        ota: { failRate: 0, progressStepPercent: 25, fetchShare: 1, whenKeyUnavailable: 'skip' },
      },
    });
  });

  it('reads every option', () => {
    const command = parseCliArgs([
      ...base,
      '--mqtt',
      'mqtts://broker.example:8883',
      '--admin-email',
      'admin@example.com',
      '--admin-password',
      'Secret123',
      '--state',
      'data/fleet.json',
      '--seed',
      '42',
      '--flap-rate',
      '0.5',
      '--fault-rate',
      '0.2',
      '--claim-share',
      '1',
      '--basic-ingest-share',
      '0',
      '--connect-rate',
      '1000',
      '--ota-fail-rate',
      '0.25',
      '--ota-progress-step',
      '10',
      '--ota-fetch-share',
      '0.5',
      '--diag-interval',
      '0',
      '--diag-binary-share',
      '1',
      '--diag-crash-rate',
      '0.5',
    ]);
    expect(command).toMatchObject({
      kind: 'run',
      options: {
        mqttUrl: 'mqtts://broker.example:8883',
        admin: { email: 'admin@example.com', password: 'Secret123' },
        statePath: 'data/fleet.json',
        seed: 42,
        flapRatePerHour: 0.5,
        faultRatePerHour: 0.2,
        claimShare: 1,
        basicIngestShare: 0,
        connectRatePerSecond: 1000,
        diagIntervalSeconds: 0,
        diagBinaryShare: 1,
        diagRates: { crash: 0.5 },
        ota: { failRate: 0.25, progressStepPercent: 10, fetchShare: 0.5 },
      },
    });
  });

  it('takes the admin credentials from the environment when the flags are absent', () => {
    const command = parseCliArgs(base, {
      FLEETDECK_ADMIN_EMAIL: 'ops@example.com',
      FLEETDECK_ADMIN_PASSWORD: 'Env12345',
    });
    expect(command).toMatchObject({
      options: { admin: { email: 'ops@example.com', password: 'Env12345' } },
    });
  });

  it('answers --help with the usage', () => {
    expect(parseCliArgs(['--help'])).toEqual({ kind: 'help' });
    for (const option of [
      '--ota-fail-rate',
      '--ota-progress-step',
      '--ota-fetch-share',
      '--fault-rate',
      '--diag-interval',
      '--diag-binary-share',
      '--diag-crash-rate',
    ]) {
      expect(USAGE).toContain(option);
    }
  });

  it('names the missing required option', () => {
    expect(errorOf(['--nodes', '5'])).toBe('--server is required');
    expect(errorOf(['--server', 'http://x'])).toBe('--nodes is required');
  });

  it('refuses bad values with one line naming the option', () => {
    expect(errorOf(['--server', 'ftp://x', '--nodes', '5'])).toBe(
      '--server must be an http:// or https:// URL',
    );
    expect(errorOf(['--server', 'http://x', '--nodes', 'lots'])).toBe(
      '--nodes must be a whole number from 1 to 100000',
    );
    expect(errorOf(['--server', 'http://x', '--nodes', '0'])).toBe(
      '--nodes must be a whole number from 1 to 100000',
    );
    expect(errorOf([...base, '--claim-share', '1.5'])).toBe(
      '--claim-share must be a number from 0 to 1',
    );
    expect(errorOf([...base, '--flap-rate=-1'])).toMatch(/^--flap-rate must be a number/);
    expect(errorOf([...base, '--fault-rate=101'])).toMatch(/^--fault-rate must be a number/);
    expect(errorOf([...base, '--flap-rate', '-1'])).toBe(
      "Option '--flap-rate' argument is ambiguous.",
    );
    expect(errorOf([...base, '--mqtt', 'http://broker'])).toBe(
      '--mqtt must be an mqtt://, mqtts://, ws:// or wss:// URL',
    );
    expect(errorOf([...base, '--seed', '1.5'])).toMatch(/^--seed must be a whole number/);
    expect(errorOf([...base, '--ota-fail-rate', '2'])).toBe(
      '--ota-fail-rate must be a number from 0 to 1',
    );
    expect(errorOf([...base, '--ota-progress-step', '0'])).toBe(
      '--ota-progress-step must be a whole number from 1 to 100',
    );
    expect(errorOf([...base, '--ota-fetch-share', 'all'])).toBe(
      '--ota-fetch-share must be a number from 0 to 1',
    );
    expect(errorOf([...base, '--diag-interval', '2.5'])).toBe(
      '--diag-interval must be a whole number from 0 to 86400',
    );
    expect(errorOf([...base, '--diag-binary-share', '1.2'])).toBe(
      '--diag-binary-share must be a number from 0 to 1',
    );
  });

  it('refuses unknown options, stray words and a lone admin flag', () => {
    expect(errorOf([...base, '--nodez', '3'])).toMatch(/--nodez/);
    expect(errorOf([...base, 'extra'])).toBe("Unexpected argument 'extra'");
    expect(errorOf([...base, '--admin-email', 'a@b.c'])).toBe(
      '--admin-password is needed together with --admin-email/--admin-password',
    );
  });
});

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './env.js';

describe('parseConfig', () => {
  it('runs on embedded defaults with no variables set', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: undefined,
      mqttPort: 1883,
      mqttUrl: undefined,
      deploymentMode: 'standard',
      accessTokenTtlSeconds: 3600,
      publicUrl: 'http://localhost:8080',
      secureCookies: false,
    });
    expect(config.dataDir).toBe(path.resolve('./data'));
  });

  it('reads every documented variable', () => {
    const config = parseConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      DATA_DIR: '/var/lib/fleetdeck',
      DATABASE_URL: 'postgres://u@db:5432/fleet',
      PUBLIC_URL: 'https://fleet.example.com/',
      MQTT_PORT: '8883',
      MQTT_URL: 'mqtt://broker:1883',
      FLEETDECK_ADMIN_EMAIL: 'ops@example.com',
      FLEETDECK_ADMIN_PASSWORD: 'Strong-Pass-42',
      DEPLOYMENT_MODE: 'customer',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      dataDir: '/var/lib/fleetdeck',
      databaseUrl: 'postgres://u@db:5432/fleet',
      publicUrl: 'https://fleet.example.com',
      secureCookies: true,
      mqttPort: 8883,
      mqttUrl: 'mqtt://broker:1883',
      adminEmail: 'ops@example.com',
      adminPassword: 'Strong-Pass-42',
      deploymentMode: 'customer',
    });
  });

  it('treats empty variables as unset', () => {
    expect(parseConfig({ DATABASE_URL: '', MQTT_URL: ' ' })).toMatchObject({
      databaseUrl: undefined,
      mqttUrl: undefined,
    });
  });

  it('lists every bad variable at once', () => {
    try {
      parseConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        DEPLOYMENT_MODE: 'cloud',
        ACCESS_TOKEN_TTL_SECONDS: '60',
      });
      expect.unreachable('parseConfig accepted a bad environment');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      for (const name of ['PORT', 'DATABASE_URL', 'DEPLOYMENT_MODE', 'ACCESS_TOKEN_TTL_SECONDS'])
        expect(problems).toContain(name);
    }
  });
});

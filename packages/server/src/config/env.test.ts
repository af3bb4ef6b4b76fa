import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, scaleOutGaps } from './env.js';

describe('parseConfig', () => {
  it('runs on embedded defaults with no variables set', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: undefined,
      mqttPort: 1883,
      mqttUrl: undefined,
      mqttSessionExpirySeconds: 0,
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
      MQTT_SESSION_EXPIRY_SECONDS: '600',
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
      mqttSessionExpirySeconds: 600,
      adminEmail: 'ops@example.com',
      adminPassword: 'Strong-Pass-42',
      deploymentMode: 'customer',
    });
  });

  it('turns the diagnostics links on unless DIAGNOSTICS_LINKS says off or false', () => {
    expect(parseConfig({}).diagnosticsLinks).toBe(true);
    expect(parseConfig({ DIAGNOSTICS_LINKS: '' }).diagnosticsLinks).toBe(true);
    for (const on of ['on', 'true', 'ON', ' True '])
      expect(parseConfig({ DIAGNOSTICS_LINKS: on }).diagnosticsLinks, on).toBe(true);
    for (const off of ['off', 'false', 'OFF', 'False'])
      expect(parseConfig({ DIAGNOSTICS_LINKS: off }).diagnosticsLinks, off).toBe(false);
    expect(() => parseConfig({ DIAGNOSTICS_LINKS: 'maybe' })).toThrow(/DIAGNOSTICS_LINKS/);
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

  it('keeps blobs on local disk unless S3_BUCKET is set', () => {
    expect(parseConfig({}).s3).toBeUndefined();
    expect(parseConfig({ S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' }).s3).toBeUndefined();
  });

  it('selects an S3-compatible store with S3_BUCKET and reads every S3 variable', () => {
    expect(
      parseConfig({
        S3_BUCKET: 'fleet-blobs',
        S3_ENDPOINT: 'http://minio:9000',
        S3_REGION: 'eu-west-1',
        S3_ACCESS_KEY_ID: 'AKIA123',
        S3_SECRET_ACCESS_KEY: 'secret/key',
        S3_PREFIX: '/site-a/prod/',
      }).s3,
    ).toEqual({
      bucket: 'fleet-blobs',
      endpoint: 'http://minio:9000',
      region: 'eu-west-1',
      accessKeyId: 'AKIA123',
      secretAccessKey: 'secret/key',
      forcePathStyle: true,
      prefix: 'site-a/prod',
    });
  });

  it('uses virtual-hosted AWS addressing in us-east-1 when no endpoint is given', () => {
    const s3 = parseConfig({
      S3_BUCKET: 'fleet-blobs',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
    }).s3;
    expect(s3).toMatchObject({ region: 'us-east-1', endpoint: undefined, forcePathStyle: false });
    expect(s3?.prefix).toBeUndefined();
    const explicit = parseConfig({
      S3_BUCKET: 'fleet-blobs',
      S3_ENDPOINT: 'https://objects.example.net',
      S3_FORCE_PATH_STYLE: 'false',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
    }).s3;
    expect(explicit?.forcePathStyle).toBe(false);
  });

  it('lists a bucket without credentials and a bad endpoint as configuration problems', () => {
    try {
      parseConfig({
        S3_BUCKET: 'fleet-blobs',
        S3_ENDPOINT: 'minio:9000',
        S3_FORCE_PATH_STYLE: 'yes',
        S3_PREFIX: '../up',
        PORT: 'eighty',
      });
      expect.unreachable('parseConfig accepted a bad S3 configuration');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      for (const name of [
        'S3_ENDPOINT',
        'S3_ACCESS_KEY_ID: required when S3_BUCKET is set',
        'S3_SECRET_ACCESS_KEY: required when S3_BUCKET is set',
        'S3_FORCE_PATH_STYLE',
        'S3_PREFIX',
        'PORT',
      ])
        expect(problems).toContain(name);
    }
    expect(() =>
      parseConfig({ S3_BUCKET: 'Not_A_Bucket', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' }),
    ).toThrow(/S3_BUCKET/);
  });

  it('reads REDIS_URL and refuses other schemes', () => {
    expect(parseConfig({ REDIS_URL: 'redis://cache:6379/2' }).redisUrl).toBe(
      'redis://cache:6379/2',
    );
    expect(parseConfig({}).redisUrl).toBeUndefined();
    expect(() => parseConfig({ REDIS_URL: 'http://cache:6379' })).toThrow(/REDIS_URL/);
  });
});

describe('scaleOutGaps', () => {
  it('reads REDIS_KEY_PREFIX, `fleetdeck:` by default, and refuses one Redis could not share safely', () => {
    expect(parseConfig({}).redisKeyPrefix).toBe('fleetdeck:');
    expect(parseConfig({ REDIS_KEY_PREFIX: ' ' }).redisKeyPrefix).toBe('fleetdeck:');
    expect(parseConfig({ REDIS_KEY_PREFIX: 'plant-b:' }).redisKeyPrefix).toBe('plant-b:');
    expect(() => parseConfig({ REDIS_KEY_PREFIX: 'two words' })).toThrow(/REDIS_KEY_PREFIX/);
    expect(() => parseConfig({ REDIS_KEY_PREFIX: 'x'.repeat(65) })).toThrow(/REDIS_KEY_PREFIX/);
  });

  it('says nothing for one instance (no REDIS_URL)', () => {
    expect(scaleOutGaps(parseConfig({}))).toEqual([]);
  });

  it('names each part several instances behind one load balancer would not agree on', () => {
    const gaps = scaleOutGaps(parseConfig({ REDIS_URL: 'redis://cache:6379' }));
    expect(gaps.map((gap) => gap.split(' ')[0])).toEqual([
      'DATABASE_URL',
      'PUBLIC_URL',
      'S3_BUCKET',
      'MQTT_URL',
    ]);
  });

  it('is empty once every shared part is configured', () => {
    const config = parseConfig({
      REDIS_URL: 'redis://cache:6379',
      DATABASE_URL: 'postgres://u@db:5432/fleet',
      PUBLIC_URL: 'https://fleet.example.com',
      MQTT_URL: 'mqtt://broker:1883',
      S3_BUCKET: 'fleet-blobs',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
    });
    expect(scaleOutGaps(config)).toEqual([]);
  });
});

import { ERROR_CODES, SERVER_MESSAGES } from '@fleetdeck/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, apiLogin, createTestServer, type TestServer } from './helpers/test-server.js';

// QUALITY.md R10: API fuzzing from the OpenAPI document. Every operation the server documents is
// called with random and boundary values for each of its parameters and body properties, as the
// super admin and without a token: no answer may be a 5xx, and every refusal carries the failure
// body. FUZZ_SEED and FUZZ_RUNS (runs per operation, default 25) explore beyond CI's fixed seed.

interface Schema {
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
}
interface Parameter {
  in: 'query' | 'path' | 'header';
  name: string;
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

/**
 * Fuzzed without a token only: operations whose success would end the fuzzing session itself,
 * and the server-sent events stream (it answers for as long as the client listens).
 */
const ANONYMOUS_ONLY = [/\/logout$/, /^\/v1\/user$/, /\/password2?$/, /^\/v1\/events$/];

/** Values no handler should trust: injection, NUL, unicode, prototype keys, sizes and types. */
const HOSTILE: unknown[] = [
  '',
  ' ',
  "' OR 1=1 --",
  '"; drop table nodes; --',
  '%',
  '_',
  '\\',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'ü, "quoted"',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '__proto__',
  'constructor',
  'x'.repeat(70),
  'x'.repeat(5_000),
  '-1',
  '0',
  '1e309',
  'NaN',
  'true',
  '2147483648',
  '9007199254740993',
  -1,
  0,
  2 ** 31,
  Number.MAX_SAFE_INTEGER,
  1.5,
  true,
  null,
  [],
  ['a', 'b'],
  {},
  JSON.parse('{"__proto__": {"polluted": true}}') as unknown,
];

/** A value for `schema`: valid-looking, at or past its bounds, or hostile. */
function valueFor(schema: Schema | undefined): fc.Arbitrary<unknown> {
  const options: fc.Arbitrary<unknown>[] = [fc.constantFrom(...HOSTILE)];
  const types = [schema?.type ?? []].flat();
  if (schema?.enum?.length) options.push(fc.constantFrom(...schema.enum));
  if (types.includes('string')) {
    const max = schema?.maxLength ?? 64;
    options.push(fc.string({ maxLength: Math.min(max, 200) }));
    options.push(fc.constantFrom('x'.repeat(max), 'x'.repeat(max + 1)));
  }
  if (types.includes('integer') || types.includes('number')) {
    const min = schema?.minimum ?? -1_000;
    const max = schema?.maximum ?? 1_000_000;
    options.push(fc.integer({ min: Math.ceil(min), max: Math.floor(Math.min(max, 2 ** 31)) }));
    options.push(fc.constantFrom(min - 1, min, max, max + 1));
  }
  if (types.includes('boolean')) options.push(fc.boolean());
  if (types.includes('array')) options.push(fc.array(valueFor(schema?.items), { maxLength: 4 }));
  if (types.includes('object') && schema?.properties) options.push(bodyFor(schema));
  for (const alternative of schema?.anyOf ?? []) options.push(valueFor(alternative));
  return fc.oneof(...options);
}

/** A JSON body for an object schema: some of its properties, now and then a stray one. */
function bodyFor(schema: Schema): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) record[name] = valueFor(property);
  return fc.oneof(
    { weight: 6, arbitrary: fc.record(record, { requiredKeys: [] }) },
    {
      weight: 1,
      arbitrary: fc.record(record).map((body) => ({ ...body, unexpected: 'x' })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<unknown>([], 'text', 7, null, JSON.parse('{"__proto__": []}')),
    },
  );
}

interface Call {
  method: string;
  url: string;
  body?: unknown;
}

/** A request for one operation: its path filled in, query parameters and (maybe) a body. */
function callFor(path: string, method: string, operation: Operation): fc.Arbitrary<Call> {
  const parameters = operation.parameters ?? [];
  const values: Record<string, fc.Arbitrary<unknown>> = {};
  for (const parameter of parameters)
    values[`${parameter.in}:${parameter.name}`] = valueFor(parameter.schema);
  const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
  return fc
    .tuple(
      fc.record(values, { requiredKeys: [] }),
      bodySchema ? fc.option(bodyFor(bodySchema), { freq: 5 }) : fc.constant(null),
    )
    .map(([chosen, body]) => {
      let url = path;
      const query = new URLSearchParams();
      for (const parameter of parameters) {
        const key = `${parameter.in}:${parameter.name}`;
        const value = key in chosen ? chosen[key] : parameter.in === 'path' ? 'x' : undefined;
        if (value === undefined) continue;
        const text = typeof value === 'string' ? value : JSON.stringify(value);
        if (parameter.in === 'path')
          url = url.replace(`{${parameter.name}}`, encodeURIComponent(text || 'x'));
        else if (parameter.in === 'query') query.append(parameter.name, text);
      }
      const search = query.toString();
      return {
        method: method.toUpperCase(),
        url: search ? `${url}?${search}` : url,
        ...(body === null ? {} : { body }),
      };
    });
}

describe.each(DIALECTS)('API fuzzing from the OpenAPI document on %s (R10)', (dialect) => {
  let server: TestServer;
  let token: string;
  let operations: Array<{ path: string; method: string; operation: Operation }>;

  beforeAll(async () => {
    server = await createTestServer(dialect);
    token = (await apiLogin(server.app)).accesstoken;
    const doc = (await server.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json<{
      paths: Record<string, Record<string, Operation>>;
    }>();
    operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    );
  });
  afterAll(async () => {
    await server.close();
  });

  /** Sends one call; a 5xx or a refusal without the failure body fails the property. */
  const send = async (call: Call, authorization: string | undefined): Promise<void> => {
    const response = await server.app.inject({
      method: call.method as 'GET',
      url: call.url,
      headers: {
        ...(authorization ? { authorization } : {}),
        ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(call.body === undefined ? {} : { payload: JSON.stringify(call.body) }),
    });
    const where = `${call.method} ${call.url} ${JSON.stringify(call.body)?.slice(0, 300)}`;
    expect(response.statusCode, `${where} → ${response.body.slice(0, 300)}`).toBeLessThan(500);
    if (response.statusCode >= 400 && call.url.startsWith('/v1/')) {
      expect(response.json(), where).toMatchObject({ status: 'failure' });
    }
    // A call that ended the session (or the fuzzed user's rights) gets a fresh one.
    if (response.statusCode === 401 && authorization)
      token = (await apiLogin(server.app)).accesstoken;
  };

  it('documents the API it serves', () => {
    expect(operations.length).toBeGreaterThan(100);
  });

  it('refuses a NUL character in a query, a path or anywhere in a JSON body with a 400', async () => {
    const refused = async (
      method: 'GET' | 'POST',
      url: string,
      errorCode: number,
      payload?: string,
    ) => {
      const response = await server.app.inject({
        method,
        url,
        headers: {
          authorization: token,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(payload === undefined ? {} : { payload }),
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({
        status: 'failure',
        description: SERVER_MESSAGES.nulCharacter,
        error_code: errorCode,
      });
    };
    // The first 5xx the fuzzer found on PostgreSQL.
    await refused('GET', '/v1/user/node_automation?start_id=a%00b', ERROR_CODES.invalidQueryParam);
    await refused('GET', '/v1/admin/nodes?type=%00', ERROR_CODES.invalidQueryParam);
    await refused('GET', '/v1/admin/node_group?group_id=a%00', ERROR_CODES.invalidQueryParam);
    await refused(
      'POST',
      '/v1/admin/node_ids',
      ERROR_CODES.invalidRequestBody,
      JSON.stringify({ nodes: [{ type: 'Refrigerator', tags: ['location:Pu\u0000ne'] }] }),
    );
    // In a key, and at the bottom of a body nested 10,000 deep.
    await refused(
      'POST',
      '/v1/admin/node_ids',
      ERROR_CODES.invalidRequestBody,
      '{"nodes": [], "a\\u0000": 1}',
    );
    await refused(
      'POST',
      '/v1/admin/node_ids',
      ERROR_CODES.invalidRequestBody,
      `{"nodes": ${'['.repeat(10_000)}"\\u0000"${']'.repeat(10_000)}}`,
    );
  });

  it('never answers a 5xx, and refuses with the failure body, for any documented operation', async () => {
    for (const { path, method, operation } of operations) {
      const ending = ANONYMOUS_ONLY.some((pattern) => pattern.test(path));
      await fc.assert(
        fc.asyncProperty(
          callFor(path, method, operation),
          fc.boolean(),
          async (call, anonymous) => {
            await send(call, anonymous || ending ? undefined : token);
          },
        ),
        {
          numRuns: Number(process.env.FUZZ_RUNS ?? 25),
          seed: Number(process.env.FUZZ_SEED ?? 20_261_125),
        },
      );
    }
    expect(Object.getPrototypeOf({}) as object).not.toHaveProperty('polluted');
  }, 600_000);
});

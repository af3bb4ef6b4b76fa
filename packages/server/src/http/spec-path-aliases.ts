import type { FastifyInstance, RouteOptions } from 'fastify';

/**
 * Calls the spec writes without RainMaker's `admin/` prefix (fleet-management §7, access §7:
 * `GET /message_template`, `PUT /cognito_appclient`, `DELETE /terms_policy`, …) while Fleetdeck
 * serves them, as RainMaker does, under `/v1/admin/…` (ADR 13). Each is answered at both paths by
 * the same route: same guard, same validation, same handler.
 */
export const SPEC_PATH_ALIASES: Readonly<Record<string, string>> = {
  '/v1/admin/message_template': '/v1/message_template',
  '/v1/admin/ses_verified_email': '/v1/ses_verified_email',
  '/v1/admin/cognito_appclient': '/v1/cognito_appclient',
  '/v1/admin/cognito_domain': '/v1/cognito_domain',
  '/v1/admin/dashboard/update': '/v1/dashboard/update',
};

/**
 * Per-method aliases where the spec's path is also a public read of another shape: only the
 * listed methods move (`GET /v1/terms_policy` stays the public read of the documents).
 */
export const SPEC_METHOD_ALIASES: ReadonlyArray<{ from: string; to: string; methods: string[] }> = [
  { from: '/v1/admin/terms_policy', to: '/v1/terms_policy', methods: ['PUT', 'DELETE'] },
];

const ALIAS_OF = Symbol('spec path alias of');

function aliasFor(route: RouteOptions): string | undefined {
  const methods = [route.method].flat();
  if (methods.includes('HEAD')) return undefined; // Fastify adds HEAD to the alias's GET itself
  const whole = SPEC_PATH_ALIASES[route.url];
  if (whole) return whole;
  return SPEC_METHOD_ALIASES.find(
    (entry) =>
      entry.from === route.url && methods.every((method) => entry.methods.includes(method)),
  )?.to;
}

/** Registers every route above a second time at the spec's path. Call before the routes. */
export function registerSpecPathAliases(app: FastifyInstance): void {
  app.addHook('onRoute', function addAlias(route) {
    if ((route as { [ALIAS_OF]?: string })[ALIAS_OF]) return;
    const alias = aliasFor(route);
    if (!alias) return;
    this.route({ ...route, url: alias, [ALIAS_OF]: route.url } as RouteOptions);
  });
}

/** Query keys of the identity side of Deployment Settings, per user pool, from one factory. */
export const identityKeys = {
  all: ['deployment-settings', 'identity'] as const,
  pool: (emailMobileUserpool: boolean) => [...identityKeys.all, emailMobileUserpool] as const,
  providers: (emailMobileUserpool: boolean) =>
    [...identityKeys.pool(emailMobileUserpool), 'providers'] as const,
  appClients: (emailMobileUserpool: boolean) =>
    [...identityKeys.pool(emailMobileUserpool), 'app-clients'] as const,
  domain: (emailMobileUserpool: boolean) =>
    [...identityKeys.pool(emailMobileUserpool), 'domain'] as const,
  backup: (emailMobileUserpool: boolean) =>
    [...identityKeys.pool(emailMobileUserpool), 'backup'] as const,
  details: (emailMobileUserpool: boolean) =>
    [...identityKeys.pool(emailMobileUserpool), 'details'] as const,
};

/** A settings path with the pool query (`email_mobile_userpool=true|false`). */
export function poolUrl(path: string, emailMobileUserpool: boolean): string {
  return `${path}?email_mobile_userpool=${String(emailMobileUserpool)}`;
}

/** Query keys of Push Notifications, from one factory. */
export const pushKeys = {
  all: ['deployment-settings', 'push'] as const,
  integration: () => [...pushKeys.all, 'integration'] as const,
  eventFilters: () => [...pushKeys.all, 'event-filters'] as const,
  platforms: () => [...pushKeys.all, 'platforms'] as const,
};

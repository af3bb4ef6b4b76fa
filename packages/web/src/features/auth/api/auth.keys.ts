/** Query keys of the auth feature, from one factory so invalidation never misses a key. */
export const authKeys = {
  all: ['auth'] as const,
  currentUser: () => [...authKeys.all, 'current-user'] as const,
  deploymentInfo: () => [...authKeys.all, 'deployment-info'] as const,
};

/** Query keys of the user-administration feature (users, templates, senders) from one factory. */
export const userKeys = {
  all: ['users'] as const,
  list: () => [...userKeys.all, 'list'] as const,
  details: (userName: string) => [...userKeys.all, 'details', userName.toLowerCase()] as const,
  template: (type: string) => ['message-template', type] as const,
  senders: () => ['ses-verified-email'] as const,
};

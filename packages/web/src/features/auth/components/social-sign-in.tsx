import type { DeploymentInfo } from '@fleetdeck/contract';
import { Button, Divider, Stack } from '@mantine/core';
import { IconBrandApple, IconBrandGithub, IconBrandGoogle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { socialSignInHref } from '../api/social-sign-in';

type Provider = DeploymentInfo['social_providers'][number];

const PROVIDERS: Record<Provider, { label: string; icon: ReactNode }> = {
  GitHub: { label: 'Continue with GitHub', icon: <IconBrandGithub size={18} aria-hidden="true" /> },
  Google: { label: 'Continue with Google', icon: <IconBrandGoogle size={18} aria-hidden="true" /> },
  SignInWithApple: {
    label: 'Continue with Apple',
    icon: <IconBrandApple size={18} aria-hidden="true" />,
  },
};

/** One button per identity provider the deployment has configured; nothing when there is none. */
export function SocialSignIn({ providers }: { providers: readonly Provider[] }) {
  if (providers.length === 0) return null;
  return (
    <Stack gap="sm">
      {providers.map((provider) => (
        <Button
          key={provider}
          component="a"
          href={socialSignInHref(provider)}
          variant="default"
          size="md"
          leftSection={PROVIDERS[provider].icon}
          fullWidth
        >
          {PROVIDERS[provider].label}
        </Button>
      ))}
      <Divider label="or sign in with email" labelPosition="center" my="xs" />
    </Stack>
  );
}

import { LABELS, formatMessage } from '@fleetdeck/contract';
import type { CurrentUser } from '@fleetdeck/contract';
import { Avatar, Box, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconChevronDown,
  IconKey,
  IconLogout,
  IconUserCircle,
  IconUserPlus,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { LogoutConfirmModal } from '../../features/auth/components/logout-confirm-modal';
import { CHANGE_PASSWORD_PATH, USER_INFO_PATH, USER_REGISTRATION_PATH } from '../../lib/paths';
import { APP_LABELS } from '../labels';
import { accountMenuEntries } from './access-rules';

type MenuUser = Pick<CurrentUser, 'user_name' | 'permissions' | 'email_user'>;

/** The Account Settings menu in the header: who is signed in, their settings, Logout. */
export function AccountMenu({ user }: { user: MenuUser }) {
  const [logoutOpened, logoutModal] = useDisclosure(false);
  const entries = accountMenuEntries(user);
  const initial = user.user_name.trim().charAt(0).toUpperCase() || '?';

  return (
    <>
      {/*
        Inside the header, not in a portal at the end of <body>: there it would be content outside
        every landmark (axe: region). Without Mantine's initial-focus placeholder, a focusable
        role="presentation" <div> that a menu may not contain (axe: aria-required-children), the
        menu opens on its first item, as the WAI-ARIA menu button pattern has it.
      */}
      <Menu
        position="bottom-end"
        width={260}
        shadow="md"
        withinPortal={false}
        withInitialFocusPlaceholder={false}
      >
        <Menu.Target>
          <UnstyledButton
            aria-label={formatMessage(APP_LABELS.accountButton, { email: user.user_name })}
            px={6}
            py={4}
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
          >
            <Group gap={8} wrap="nowrap">
              {/*
                The initial is drawn by CSS, not as text: it would be read (and checked by axe)
                as part of the button's visible label, which is the e-mail beside it.
              */}
              <Avatar size={32} radius="xl" color="fleet" variant="filled" aria-hidden="true">
                <span className="avatar-initial" data-initial={initial} />
              </Avatar>
              <Text size="sm" fw={500} visibleFrom="sm" truncate="end" maw={220}>
                {user.user_name}
              </Text>
              <IconChevronDown size={14} aria-hidden="true" />
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{LABELS.accountSettings}</Menu.Label>
          {/* The signed-in user opens their own profile (/home/userinfo/). */}
          <Menu.Item
            component={Link}
            to={USER_INFO_PATH}
            leftSection={<IconUserCircle size={16} aria-hidden="true" />}
            // A label that may shrink, so a long e-mail ends in an ellipsis inside the menu.
            styles={{ itemLabel: { minWidth: 0 } }}
          >
            <Box>
              <Text size="xs" c="dimmed">
                Signed in as
              </Text>
              <Text size="sm" fw={500} truncate="end" data-testid="signed-in-user">
                {user.user_name}
              </Text>
            </Box>
          </Menu.Item>
          <Menu.Divider />
          {entries.userRegistration && (
            <Menu.Item
              component={Link}
              to={USER_REGISTRATION_PATH}
              leftSection={<IconUserPlus size={16} aria-hidden="true" />}
            >
              {LABELS.userRegistration}
            </Menu.Item>
          )}
          {entries.changePassword && (
            <Menu.Item
              component={Link}
              to={CHANGE_PASSWORD_PATH}
              leftSection={<IconKey size={16} aria-hidden="true" />}
            >
              {LABELS.changePassword}
            </Menu.Item>
          )}
          <Menu.Item
            color="red"
            // Mantine draws a red item in red.6 (3.3:1 on white); the error red passes AA.
            c="var(--mantine-color-error)"
            leftSection={<IconLogout size={16} aria-hidden="true" />}
            onClick={logoutModal.open}
          >
            {LABELS.logout}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <LogoutConfirmModal opened={logoutOpened} onClose={logoutModal.close} />
    </>
  );
}

import { LABELS, formatMessage } from '@fleetdeck/contract';
import {
  Box,
  Center,
  Group,
  Loader,
  Paper,
  Radio,
  Select,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { useDocumentTitle, useMediaQuery } from '@mantine/hooks';
import { Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { DEPLOYMENT_LABELS } from '../labels';
import { DEPLOYMENT_TABS, isDeploymentTabId, type DeploymentTabId } from '../tab-registry';

const POOL_PARAM = 'pool';
const TAB_PARAM = 'tab';
/** `?pool=email` picks the Email User Pool; without it the page shows the default pool. */
const EMAIL_POOL = 'email';

/**
 * /home/deployment-settings/ (access §2): the user-pool choice, then the side tabs. The pool and
 * the open tab live in the URL, so a reload or a shared link opens the same settings.
 */
export function DeploymentSettingsRoute() {
  useDocumentTitle(`${LABELS.navDeploymentSettings} · Fleetdeck`);
  const [params, setParams] = useSearchParams();
  const narrow = useMediaQuery('(max-width: 62em)');
  const emailMobileUserpool = params.get(POOL_PARAM) !== EMAIL_POOL;
  const requested = params.get(TAB_PARAM);
  const activeId: DeploymentTabId = isDeploymentTabId(requested)
    ? requested
    : DEPLOYMENT_TABS[0]!.id;
  const active = DEPLOYMENT_TABS.find((tab) => tab.id === activeId)!;

  const update = (name: string, value: string | undefined) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === undefined) next.delete(name);
        else next.set(name, value);
        return next;
      },
      { replace: true },
    );

  const firstPoolTab = DEPLOYMENT_TABS.findIndex((tab) => tab.poolDependent);
  const ActiveTab = active.Component;

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} size="h2">
          {LABELS.navDeploymentSettings}
        </Title>
        <Radio.Group
          value={emailMobileUserpool ? 'email_mobile' : EMAIL_POOL}
          onChange={(value) => update(POOL_PARAM, value === EMAIL_POOL ? EMAIL_POOL : undefined)}
          label={DEPLOYMENT_LABELS.userPool}
          description={DEPLOYMENT_LABELS.userPoolHint}
        >
          {/* Side by side where they fit; stacked on a phone, without the wide gap between. */}
          <Group mt={6} gap="xl" style={{ rowGap: 'var(--mantine-spacing-xs)' }}>
            <Radio value={EMAIL_POOL} label={LABELS.emailUserPool} />
            <Radio value="email_mobile" label={LABELS.emailPhoneUserPool} />
          </Group>
        </Radio.Group>
      </Stack>

      <Group align="flex-start" gap="lg" wrap={narrow ? 'wrap' : 'nowrap'}>
        {narrow ? (
          <Select
            w="100%"
            label={DEPLOYMENT_LABELS.setting}
            data={DEPLOYMENT_TABS.map((tab) => ({ value: tab.id, label: tab.label }))}
            value={activeId}
            allowDeselect={false}
            onChange={(value) => value && update(TAB_PARAM, value)}
          />
        ) : (
          <Tabs
            orientation="vertical"
            variant="pills"
            value={activeId}
            onChange={(value) => value && update(TAB_PARAM, value)}
            w={240}
            style={{ flexShrink: 0 }}
            styles={{
              tab: { justifyContent: 'flex-start' },
              tabLabel: { flex: 'none', textAlign: 'left' },
            }}
          >
            <Tabs.List aria-label={LABELS.navDeploymentSettings} w="100%">
              {DEPLOYMENT_TABS.map((tab, index) => (
                <Box key={tab.id}>
                  {index === firstPoolTab && (
                    <Text size="xs" c="dimmed" tt="uppercase" fw={600} mt="md" mb={4} px="sm">
                      {emailMobileUserpool ? LABELS.emailPhoneUserPool : LABELS.emailUserPool}
                    </Text>
                  )}
                  <Tabs.Tab value={tab.id} w="100%">
                    {tab.label}
                  </Tabs.Tab>
                </Box>
              ))}
            </Tabs.List>
          </Tabs>
        )}

        <Paper
          withBorder
          p={{ base: 'md', sm: 'xl' }}
          style={{ flex: 1, minWidth: 0 }}
          w={narrow ? '100%' : undefined}
          role="tabpanel"
          aria-label={active.label}
        >
          <Stack gap="md">
            <Title order={2} size="h3">
              {active.label}
            </Title>
            <Suspense
              fallback={
                <Center py="xl">
                  <Loader
                    size="sm"
                    aria-label={formatMessage(DEPLOYMENT_LABELS.loadingTab, { tab: active.label })}
                  />
                </Center>
              }
            >
              <ActiveTab
                key={`${active.id}:${String(emailMobileUserpool)}`}
                emailMobileUserpool={emailMobileUserpool}
              />
            </Suspense>
          </Stack>
        </Paper>
      </Group>
    </Stack>
  );
}

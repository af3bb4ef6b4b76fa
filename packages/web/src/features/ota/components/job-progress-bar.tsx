import { formatMessage, type JobSummary } from '@fleetdeck/contract';
import { Box, ColorSwatch, Group, Progress, SimpleGrid, Text, Tooltip } from '@mantine/core';
import { OTA_LABELS } from '../labels';
import type { JobModeConfig } from '../model/job-mode';
import { formatPercent, progressCaption, progressSections } from '../model/job-progress';

/**
 * The rollout by outcome (fleet-management §2: started, triggered, in progress, failed, success,
 * rejected; fault jobs say succeeded): one multi-section bar and a legend with the counts.
 */
export function JobProgressBar({ summary, mode }: { summary: JobSummary; mode: JobModeConfig }) {
  const sections = progressSections(summary, mode);
  return (
    <Box data-testid="job-progress">
      <Group justify="space-between" mb={6}>
        <Text fw={600}>{OTA_LABELS.progressHeading}</Text>
        <Text size="sm" c="dimmed" data-testid="job-progress-done">
          {progressCaption(summary)}
        </Text>
      </Group>
      <Progress.Root size={18} radius="md" role="group" aria-label={OTA_LABELS.progressAria}>
        {sections
          .filter((section) => section.count > 0)
          .map((section) => (
            <Tooltip
              key={section.key}
              withArrow
              label={formatMessage(OTA_LABELS.sectionTooltip, {
                label: section.label,
                count: section.count,
                percent: formatPercent(section.percent),
              })}
            >
              <Progress.Section
                value={section.percent}
                color={section.color}
                // Mantine would read the raw share ("33.33333%"): one decimal at most instead.
                withAria={false}
                role="progressbar"
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={Math.round(section.percent * 10) / 10}
                aria-valuetext={`${formatPercent(section.percent)}%`}
                aria-label={section.label}
                style={{ transition: 'width 300ms ease' }}
              />
            </Tooltip>
          ))}
      </Progress.Root>
      <SimpleGrid cols={{ base: 2, xs: 3, md: sections.length }} spacing="xs" mt="sm">
        {sections.map((section) => (
          <Group
            key={section.key}
            gap={8}
            wrap="nowrap"
            data-testid={`progress-${section.key}`}
            opacity={section.count === 0 ? 0.55 : 1}
          >
            <ColorSwatch
              color={`var(--mantine-color-${section.color.replace('.', '-')})`}
              size={12}
            />
            <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
              {section.label}{' '}
              <Text span fw={700} style={{ fontVariantNumeric: 'tabular-nums' }}>
                {section.count}
              </Text>
            </Text>
          </Group>
        ))}
      </SimpleGrid>
    </Box>
  );
}

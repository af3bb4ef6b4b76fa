import {
  LABELS,
  formatMessage,
  type PublicTermsDocument,
  type TermsFile,
} from '@fleetdeck/contract';
import { Anchor, Box, Button, Group, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconArrowLeft, IconExternalLink, IconFileOff } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PublicPage } from '../../../components/public-page';
import { QueryErrorAlert } from '../../../components/query-error-alert';
import { LOGIN_PATH, PRIVACY_POLICY_PATH, TERMS_OF_SERVICE_PATH } from '../../../lib/paths';
import { usePublicPolicy } from '../api/public-policy.query';
import { POLICY_LABELS } from '../labels';
import {
  POLICY_FRAME_SANDBOX,
  policyFrameDocument,
  textParagraphs,
} from '../model/policy-document';

/** The two public pages: their document, title and path, and the other page's. */
const PAGES: Record<TermsFile, { title: string; path: string }> = {
  privacy_policy: { title: POLICY_LABELS.privacyPolicy, path: PRIVACY_POLICY_PATH },
  terms_of_use: { title: POLICY_LABELS.termsOfService, path: TERMS_OF_SERVICE_PATH },
};

const otherFile = (file: TermsFile): TermsFile =>
  file === 'privacy_policy' ? 'terms_of_use' : 'privacy_policy';

function BackToLogin() {
  return (
    <Button
      component={Link}
      to={LOGIN_PATH}
      variant="light"
      leftSection={<IconArrowLeft size={16} aria-hidden="true" />}
    >
      {LABELS.backToLogin}
    </Button>
  );
}

/** The document itself: plain text as paragraphs, HTML in a sandboxed frame. */
function DocumentBody({ document, title }: { document: PublicTermsDocument; title: string }) {
  if (document.format === 'text')
    return (
      <Stack gap="sm" data-testid="policy-document">
        {textParagraphs(document.content).map((paragraph, index) => (
          <Text key={index} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {paragraph}
          </Text>
        ))}
      </Stack>
    );
  return (
    <Box
      component="iframe"
      data-testid="policy-document"
      title={formatMessage(POLICY_LABELS.frameTitle, { document: title })}
      sandbox={POLICY_FRAME_SANDBOX}
      referrerPolicy="no-referrer"
      srcDoc={policyFrameDocument(document.content)}
      w="100%"
      h="min(68dvh, 720px)"
      mih={320}
      style={{
        border: '1px solid var(--mantine-color-gray-3)',
        borderRadius: 'var(--mantine-radius-md)',
        display: 'block',
      }}
    />
  );
}

/** What an operator sees when the deployment has not published this document. */
function NotPublished({ title }: { title: string }) {
  return (
    <Stack gap="md" align="center" ta="center" py="md" data-testid="policy-not-published">
      <ThemeIcon size={56} radius="xl" variant="light" color="gray">
        <IconFileOff size={28} aria-hidden="true" />
      </ThemeIcon>
      <Stack gap={6}>
        <Text fw={600}>{formatMessage(POLICY_LABELS.notPublished, { document: title })}</Text>
        <Text size="sm" c="dimmed" maw={380}>
          {POLICY_LABELS.notPublishedHint}
        </Text>
      </Stack>
      <BackToLogin />
    </Stack>
  );
}

/**
 * /privacy-policy and /terms-of-service (access §2: the sign-in page links to the privacy policy
 * and terms): the deployment's published document, or a notice that there is none yet, with a way
 * back to sign-in either way. Public: no session needed.
 */
export function PolicyPage({ file }: { file: TermsFile }) {
  const { title } = PAGES[file];
  useDocumentTitle(`${title} · Fleetdeck`);
  const policy = usePublicPolicy(file);
  const other = PAGES[otherFile(file)];

  let body;
  if (policy.isPending)
    body = (
      <Stack
        gap="sm"
        aria-busy="true"
        aria-label={formatMessage(POLICY_LABELS.loading, { document: title })}
      >
        <Skeleton height={14} />
        <Skeleton height={14} />
        <Skeleton height={14} width="70%" />
      </Stack>
    );
  else if (policy.isError)
    body = (
      <QueryErrorAlert
        error={policy.error}
        retryLabel={POLICY_LABELS.tryAgain}
        onRetry={() => void policy.refetch()}
      />
    );
  else if (policy.data === null) body = <NotPublished title={title} />;
  else body = <DocumentBody document={policy.data} title={title} />;

  const published = policy.data ?? null;
  return (
    <PublicPage width={760}>
      <Stack gap="lg">
        <Title order={1} size="h2">
          {title}
        </Title>
        {body}
        {published !== null && (
          <Group justify="space-between" gap="sm">
            <BackToLogin />
            <Group
              gap={0}
              style={{
                columnGap: 'var(--mantine-spacing-lg)',
                rowGap: 'var(--mantine-spacing-xs)',
              }}
            >
              <Anchor component={Link} to={other.path} size="sm">
                {other.title}
              </Anchor>
              {published.file_url && (
                <Anchor
                  href={published.file_url}
                  target="_blank"
                  rel="noopener noreferrer"
                  size="sm"
                >
                  <Group gap={4} component="span">
                    {POLICY_LABELS.openFile}
                    <IconExternalLink size={14} aria-hidden="true" />
                  </Group>
                </Anchor>
              )}
            </Group>
          </Group>
        )}
      </Stack>
    </PublicPage>
  );
}

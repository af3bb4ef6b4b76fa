import { Anchor, Group } from '@mantine/core';
import { useTermsLinks } from '../../api/terms-links.query';

/** The sign-in page's links to the Privacy Policy and Terms of Use, shown only when stored. */
export function PolicyLinks() {
  const links = useTermsLinks();
  const privacy = links.data?.privacy_policy_file_url;
  const terms = links.data?.terms_of_use_file_url;
  if (!privacy && !terms) return null;
  return (
    <Group justify="center" gap="lg" mt="md" data-testid="policy-links">
      {privacy && (
        <Anchor href={privacy} target="_blank" rel="noopener noreferrer" size="sm">
          Privacy Policy
        </Anchor>
      )}
      {terms && (
        <Anchor href={terms} target="_blank" rel="noopener noreferrer" size="sm">
          Terms of Use
        </Anchor>
      )}
    </Group>
  );
}

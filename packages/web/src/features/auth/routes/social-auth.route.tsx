import {
  API_PATHS,
  LABELS,
  MESSAGES,
  socialRefusalMessage,
  type CurrentUser,
  type SocialMfaStep,
} from '@fleetdeck/contract';
import { Alert, Button, Loader, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PublicPage } from '../../../components/public-page';
import { apiJson } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/api-error';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { DEVICES_PATH, LOGIN_PATH, MFA_VERIFICATION_PATH } from '../../../lib/paths';
import { rememberMfaStep } from '../pending-sign-in';
import { markSignedIn } from '../../../lib/session';
import { authKeys } from '../api/auth.keys';

/** The second factor a social sign-in still owes (the callback left it in an HttpOnly cookie). */
async function fetchMfaStep(): Promise<SocialMfaStep> {
  const { SocialMfaStepSchema } = await loadSchemas();
  return apiJson(API_PATHS.oauthMfaStep, SocialMfaStepSchema, { session: 'public' });
}

/** Reads the signed-in user; the server's callback has already set the session cookies. */
async function confirmSession(): Promise<CurrentUser> {
  const { CurrentUserSchema } = await loadSchemas();
  return apiJson(API_PATHS.user, CurrentUserSchema, { session: 'public' });
}

/**
 * /socialauth (access §2): where a social sign-in lands. The server's callback has set the
 * HttpOnly session cookies (ADR 12), so the URL carries no token; this screen confirms the session
 * and goes to /home/nodes, or shows why the sign-in was refused with a way back to /login (only
 * the contract's own messages: the URL's error_description is never shown as it is).
 */
export function SocialAuthRoute() {
  useDocumentTitle('Signing in · Fleetdeck');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Only our own fixed texts: a crafted link must not put its words on this page.
  const error = params.get('error');
  const description = params.get('error_description');
  const refused =
    error !== null || description !== null ? socialRefusalMessage(error, description) : null;
  const [failure, setFailure] = useState<string | null>(refused);

  useEffect(() => {
    if (refused !== null) return;
    let cancelled = false;
    if (params.get('mfa') === '1') {
      // The account has a second factor: ask for it like after a password.
      fetchMfaStep()
        .then((step) => {
          if (cancelled) return;
          rememberMfaStep({
            userName: step.user_name,
            session: step.session,
            challenge: step.challenge,
            phoneHint: step.phone_hint,
          });
          void navigate(MFA_VERIFICATION_PATH, { replace: true });
        })
        .catch((error: unknown) => {
          if (!cancelled) setFailure(errorMessage(error));
        });
      return () => {
        cancelled = true;
      };
    }
    confirmSession()
      .then((user) => {
        if (cancelled) return;
        markSignedIn(user.session_expires_at);
        queryClient.setQueryData(authKeys.currentUser(), user);
        void navigate(DEVICES_PATH, { replace: true });
      })
      .catch((error: unknown) => {
        if (!cancelled) setFailure(errorMessage(error));
      });
    return () => {
      cancelled = true;
    };
  }, [refused, params, navigate, queryClient]);

  return (
    <PublicPage>
      {failure === null ? (
        <Stack align="center" gap="md" py="xl" role="status">
          <Loader aria-hidden="true" />
          <Text>Signing you in…</Text>
        </Stack>
      ) : (
        <Stack gap="lg">
          <Title order={1} size="h3">
            Sign-in did not complete
          </Title>
          <Alert
            color="red"
            variant="light"
            role="alert"
            icon={<IconAlertCircle size={18} aria-hidden="true" />}
          >
            {failure || MESSAGES.socialSignInRefused}
          </Alert>
          <Button component={Link} to={LOGIN_PATH} replace>
            {LABELS.backToLogin}
          </Button>
        </Stack>
      )}
    </PublicPage>
  );
}

import { useDocumentTitle } from '@mantine/hooks';
import { useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { PageLoader } from '../../../components/page-loader';
import { PublicPage } from '../../../components/public-page';
import { HOME_PATH } from '../../../lib/paths';
import { hasStoredSession } from '../../../lib/session';
import { useCurrentUser } from '../api/current-user.query';
import { LoginForm } from '../components/login-form';
import { returnPathAfterLogin } from '../return-path';

/**
 * /login. A signed-in user goes straight on to /home (or to the page the guard turned away);
 * that includes the moment a sign-in succeeds, since the form stores the user it fetched.
 */
export function LoginRoute() {
  useDocumentTitle('Sign in · Fleetdeck');
  const location = useLocation();
  // Ask the server only when this browser believes it is signed in; everyone else gets the form
  // at once (and no pointless 401). A sign-in stores the user in the same query, so the redirect
  // below still fires after it.
  const [expectSession] = useState(hasStoredSession);
  const currentUser = useCurrentUser({ enabled: expectSession });

  if (currentUser.data) {
    return <Navigate to={returnPathAfterLogin(location.state, HOME_PATH)} replace />;
  }
  if (expectSession && currentUser.isPending) return <PageLoader />;
  return (
    <PublicPage>
      <LoginForm />
    </PublicPage>
  );
}

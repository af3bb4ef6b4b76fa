import { useDocumentTitle } from '@mantine/hooks';
import { Navigate } from 'react-router';
import { PageLoader } from '../../../components/page-loader';
import { PublicPage } from '../../../components/public-page';
import { LOGIN_PATH } from '../../../lib/paths';
import { isCustomerMode, useDeploymentInfo } from '../api/deployment-info.query';
import { SignUpForm } from '../components/sign-up-form';

/** /sign-up. Customer deployments have no sign-up and go back to /login (access §2). */
export function SignUpRoute() {
  useDocumentTitle('Sign up · Fleetdeck');
  const deploymentInfo = useDeploymentInfo();
  if (deploymentInfo.isPending) return <PageLoader />;
  if (isCustomerMode(deploymentInfo.data) || deploymentInfo.data?.sign_up_enabled === false)
    return <Navigate to={LOGIN_PATH} replace />;
  return (
    <PublicPage>
      <SignUpForm />
    </PublicPage>
  );
}

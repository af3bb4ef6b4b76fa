import { Navigate } from 'react-router';
import { PageLoader } from '../../../components/page-loader';
import { PublicNotFound } from '../../../components/public-not-found';
import { LOGIN_PATH } from '../../../lib/paths';
import { isCustomerMode, useDeploymentInfo } from '../api/deployment-info.query';

/**
 * /sign-up. Customer deployments have no sign-up and go back to /login (access §2). Sign-up is
 * not part of this version, so everyone else gets the honest "not found" page.
 */
export function SignUpRoute() {
  const deploymentInfo = useDeploymentInfo();
  if (deploymentInfo.isPending) return <PageLoader />;
  if (isCustomerMode(deploymentInfo.data)) return <Navigate to={LOGIN_PATH} replace />;
  return <PublicNotFound />;
}

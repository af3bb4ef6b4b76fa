import { createBrowserRouter, redirect } from 'react-router';
import { PageLoader } from '../components/page-loader';
import { RouteError } from '../components/route-error';
import { LOGIN_PATH } from '../lib/paths';
import { RootLayout } from './root.layout';

/**
 * The route table. Every screen is loaded on demand so the first page ships little JavaScript.
 * Paths match case-insensitively (React Router's default), so the sidebar's /home/georegion
 * and the spec's /home/Georegion are the same route; a trailing slash is optional.
 */
export function createAppRouter() {
  return createBrowserRouter([
    {
      Component: RootLayout,
      HydrateFallback: PageLoader,
      ErrorBoundary: RouteError,
      children: [
        { index: true, loader: () => redirect(LOGIN_PATH) },
        {
          path: 'login',
          lazy: async () => ({
            Component: (await import('../features/auth/routes/login.route')).LoginRoute,
          }),
        },
        {
          path: 'unauthorised',
          lazy: async () => ({
            Component: (await import('../features/auth/routes/unauthorised.route'))
              .UnauthorisedRoute,
          }),
        },
        {
          path: 'socialauth',
          lazy: async () => ({
            Component: (await import('../features/auth/routes/social-auth.route')).SocialAuthRoute,
          }),
        },
        {
          path: 'sign-up',
          lazy: async () => ({
            Component: (await import('../features/auth/routes/sign-up.route')).SignUpRoute,
          }),
        },
        {
          path: 'verification',
          lazy: async () => ({
            Component: (await import('../features/auth/routes/verification.route'))
              .VerificationRoute,
          }),
        },
        {
          path: 'mfa-verification',
          lazy: async () => ({
            Component: (await import('../features/auth/routes/mfa-verification.route'))
              .MfaVerificationRoute,
          }),
        },
        {
          path: 'forgot-password',
          lazy: async () => ({
            Component: (await import('../features/auth/routes/forgot-password.route'))
              .ForgotPasswordRoute,
          }),
        },
        {
          path: 'set-new-password',
          lazy: async () => ({
            Component: (await import('../features/auth/routes/set-new-password.route'))
              .SetNewPasswordRoute,
          }),
        },
        {
          path: 'privacy-policy',
          lazy: async () => ({
            Component: (await import('../features/policies/routes/policy.route'))
              .PrivacyPolicyRoute,
          }),
        },
        {
          path: 'terms-of-service',
          lazy: async () => ({
            Component: (await import('../features/policies/routes/policy.route'))
              .TermsOfServiceRoute,
          }),
        },
        {
          path: 'home',
          lazy: async () => ({
            Component: (await import('./layout/home.layout')).HomeLayout,
          }),
          children: [
            {
              index: true,
              lazy: async () => ({
                Component: (await import('./routes/home-index.route')).HomeIndexRoute,
              }),
            },
            {
              path: 'userinfo',
              lazy: async () => ({
                Component: (await import('../features/auth/routes/user-info.route')).UserInfoRoute,
              }),
            },
            {
              path: 'change-password',
              lazy: async () => ({
                Component: (await import('../features/auth/routes/change-password.route'))
                  .ChangePasswordRoute,
              }),
            },
            {
              path: 'nodes',
              lazy: async () => ({
                Component: (await import('../features/nodes/routes/devices.route')).DevicesRoute,
              }),
            },
            {
              path: 'metricss',
              lazy: async () => ({
                Component: (await import('../features/nodes/routes/graphs.route')).GraphsRoute,
              }),
            },
            {
              path: 'managedevice',
              lazy: async () => ({
                Component: (await import('../features/nodes/routes/manage-device.route'))
                  .ManageDeviceRoute,
              }),
            },
            {
              path: 'Georegion',
              lazy: async () => ({
                Component: (await import('../features/nodes/routes/geo-region.route'))
                  .GeoRegionRoute,
              }),
            },
            {
              path: 'Productserial',
              lazy: async () => ({
                Component: (await import('../features/nodes/routes/product-serial.route'))
                  .ProductSerialRoute,
              }),
            },
            {
              path: 'device-reports',
              lazy: async () => ({
                Component: (await import('../features/nodes/routes/device-reports.route'))
                  .DeviceReportsRoute,
              }),
            },
            {
              path: 'node-groups',
              lazy: async () => ({
                Component: (await import('../features/groups/routes/node-groups.route'))
                  .NodeGroupsRoute,
              }),
            },
            ...['node-groups/:groupId', 'group-details/:groupId'].map((path) => ({
              path,
              lazy: async () => ({
                Component: (await import('../features/groups/routes/group-details.route'))
                  .GroupDetailsRoute,
              }),
            })),
            // User registration and user details (fleet-management §2), behind the users.manage
            // gate so that nobody else sees the screens and only then the API's 403.
            {
              lazy: async () => ({
                Component: (await import('./routes/user-admin.route')).UserAdminRoute,
              }),
              children: [
                {
                  path: 'userregistration',
                  lazy: async () => ({
                    Component: (await import('../features/users/routes/user-registration.route'))
                      .UserRegistrationRoute,
                  }),
                },
                ...['userregistration/:userName', 'user-details/:userName'].map((path) => ({
                  path,
                  lazy: async () => ({
                    Component: (await import('../features/users/routes/user-details.route'))
                      .UserDetailsRoute,
                  }),
                })),
              ],
            },
            // OTA jobs (fleet-management §2) and fault jobs (access §2 Fault screens).
            {
              path: 'ota-jobs',
              lazy: async () => ({
                Component: (await import('../features/ota/routes/ota-jobs.route')).OtaJobsRoute,
              }),
            },
            {
              path: 'ota-archived-jobs',
              lazy: async () => ({
                Component: (await import('../features/ota/routes/ota-archived-jobs.route'))
                  .OtaArchivedJobsRoute,
              }),
            },
            {
              path: 'job-details/:otaJobId',
              lazy: async () => ({
                Component: (await import('../features/ota/routes/job-details.route'))
                  .JobDetailsRoute,
              }),
            },
            {
              path: 'faultjobs',
              lazy: async () => ({
                Component: (await import('../features/ota/routes/fault-jobs.route')).FaultJobsRoute,
              }),
            },
            {
              path: 'fault-ota-archived-jobs',
              lazy: async () => ({
                Component: (await import('../features/ota/routes/fault-archived-jobs.route'))
                  .FaultArchivedJobsRoute,
              }),
            },
            {
              path: 'fault-job-details/:otaJobId',
              lazy: async () => ({
                Component: (await import('../features/ota/routes/fault-job-details.route'))
                  .FaultJobDetailsRoute,
              }),
            },
            {
              path: 'firmware-images',
              lazy: async () => ({
                Component: (await import('../features/firmware/routes/firmware-images.route'))
                  .FirmwareImagesRoute,
              }),
            },
            {
              path: 'archived-firmware-images',
              lazy: async () => ({
                Component: (
                  await import('../features/firmware/routes/archived-firmware-images.route')
                ).ArchivedFirmwareImagesRoute,
              }),
            },
            {
              path: 'image-details/:otaImageId',
              lazy: async () => ({
                Component: (await import('../features/firmware/routes/image-details.route'))
                  .ImageDetailsRoute,
              }),
            },
            {
              path: 'Fault-images',
              lazy: async () => ({
                Component: (await import('../features/firmware/routes/fault-images.route'))
                  .FaultImagesRoute,
              }),
            },
            {
              path: 'fault-archived-fault-images',
              lazy: async () => ({
                Component: (await import('../features/firmware/routes/fault-archived-images.route'))
                  .FaultArchivedImagesRoute,
              }),
            },
            {
              path: 'fault-image-details/:otaImageId',
              lazy: async () => ({
                Component: (await import('../features/firmware/routes/fault-image-details.route'))
                  .FaultImageDetailsRoute,
              }),
            },
            // Fault screens (access §2): Faults List, fault device list, Fault History.
            {
              path: 'FaultList',
              lazy: async () => ({
                Component: (await import('../features/faults/routes/fault-list.route'))
                  .FaultListRoute,
              }),
            },
            {
              path: 'FaultList/:type/:code',
              lazy: async () => ({
                Component: (await import('../features/faults/routes/fault-devices.route'))
                  .FaultDevicesRoute,
              }),
            },
            {
              path: 'Faulthistory',
              lazy: async () => ({
                Component: (await import('../features/faults/routes/fault-history.route'))
                  .FaultHistoryRoute,
              }),
            },
            ...['deployment-settings', 'alarmalert'].map((path) => ({
              path,
              lazy: async () => ({
                Component: (await import('./routes/customer-admin.route')).CustomerAdminRoute,
              }),
              // alarmalert: the Multigraph page (features/diagnostics); deployment-settings: the
              // settings tabs (features/deployment-settings); both inside the same gate.
              children: [
                {
                  index: true,
                  lazy:
                    path === 'alarmalert'
                      ? async () => ({
                          Component: (
                            await import('../features/diagnostics/routes/alarm-alert.route')
                          ).AlarmAlertRoute,
                        })
                      : async () => ({
                          Component: (
                            await import('../features/deployment-settings/routes/deployment-settings.route')
                          ).DeploymentSettingsRoute,
                        }),
                },
              ],
            })),
            // Diagnostics (access §2): the header, search and tabs around each tab's screen.
            {
              path: 'diagnostics',
              lazy: async () => ({
                Component: (await import('../features/diagnostics/routes/diagnostics-layout.route'))
                  .DiagnosticsLayoutRoute,
              }),
              children: [
                {
                  index: true,
                  lazy: async () => ({
                    Component: (
                      await import('../features/diagnostics/routes/diagnostics-index.route')
                    ).DiagnosticsIndexRoute,
                  }),
                },
                {
                  path: 'report/:nodeId',
                  lazy: async () => ({
                    Component: (await import('../features/diagnostics/routes/report.route'))
                      .ReportRoute,
                  }),
                },
                {
                  path: 'metrics/:nodeId',
                  lazy: async () => ({
                    Component: (await import('../features/diagnostics/routes/metrics.route'))
                      .MetricsRoute,
                  }),
                },
                {
                  path: 'paramvalues/:nodeId',
                  lazy: async () => ({
                    Component: (await import('../features/diagnostics/routes/param-values.route'))
                      .ParamValuesRoute,
                  }),
                },
                {
                  path: 'multigraph1/:nodeId',
                  lazy: async () => ({
                    Component: (await import('../features/diagnostics/routes/multigraph.route'))
                      .MultigraphRoute,
                  }),
                },
              ],
            },
            {
              path: '*',
              lazy: async () => ({
                Component: (await import('./routes/home-not-found.route')).HomeNotFoundRoute,
              }),
            },
          ],
        },
        {
          path: '*',
          lazy: async () => ({
            Component: (await import('./routes/not-found.route')).NotFoundRoute,
          }),
        },
      ],
    },
  ]);
}

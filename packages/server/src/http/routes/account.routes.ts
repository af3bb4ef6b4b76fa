import {
  API_PATHS,
  ForgotPasswordBodySchema,
  MESSAGES,
  SERVER_MESSAGES,
  SignUpBodySchema,
  SuccessBodySchema,
  TotpBeginResponseSchema,
  TotpCodeBodySchema,
  TotpConfirmResponseSchema,
  UserSettingsUpdateSchema,
} from '@fleetdeck/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AccountService } from '../../services/accounts/account.service.js';
import type { AuthService } from '../../services/auth/auth.service.js';
import type { MfaService } from '../../services/auth/mfa.service.js';
import { authOf, requireAuth } from '../plugins/auth.plugin.js';

export interface AccountRoutesOptions {
  auth: AuthService;
  accounts: AccountService;
  mfa: MfaService;
  /** Per-IP request cap for the public account routes (sign-up, recovery) and code checks. */
  publicRateLimit: { max: number; timeWindow: number };
}

const success = (description: string) => ({ status: 'success' as const, description });

/**
 * Self-service accounts: sign-up and verification (POST /v1/user, /v1/user2), password recovery
 * (PUT /v1/forgotpassword, /v1/forgotpassword2), the user's own settings (PUT /v1/user,
 * /v1/user2) and the authenticator app (/v1/user2/totp).
 */
export const accountRoutes: FastifyPluginAsyncZod<AccountRoutesOptions> = async (
  app,
  { auth, accounts, mfa, publicRateLimit },
) => {
  app.addHook('onClose', async () => accounts.settle());
  // The signed-in routes check the session before the body (preValidation), so an anonymous
  // caller learns nothing from validation messages.

  for (const path of [API_PATHS.user, API_PATHS.user2]) {
    app.post(
      path,
      {
        config: { rateLimit: publicRateLimit },
        schema: {
          tags: ['accounts'],
          summary:
            'Sign up with {user_name, password} (a code is mailed), or verify with {user_name, verification_code}',
          security: [],
          body: SignUpBodySchema,
          response: { 201: SuccessBodySchema },
        },
      },
      async (request, reply) => {
        const { user_name, password, verification_code } = request.body;
        if (verification_code !== undefined) {
          await accounts.confirmSignUp(user_name, verification_code);
          return reply.code(201).send(success(MESSAGES.userVerified));
        }
        await accounts.signUp(user_name, password ?? '');
        return reply.code(201).send(success(SERVER_MESSAGES.signUpCodeSent));
      },
    );

    app.put(
      path,
      {
        preValidation: requireAuth(auth, 'user.self'),
        config: { rateLimit: publicRateLimit },
        schema: {
          tags: ['accounts'],
          summary:
            'Update one of name, phone_number (texts a code), verification_code (confirms the phone) or mfa; {mfa: false} also needs password or code (authenticator app)',
          body: UserSettingsUpdateSchema,
          response: { 200: SuccessBodySchema },
        },
      },
      async (request) => {
        const { userId } = authOf(request).user;
        const { password, code, ...update } = request.body;
        // Step-up authentication: a fresh proof of the user before MFA goes off.
        if (update.mfa === false) await mfa.confirmTurningOff(userId, { password, code });
        const description = await accounts.updateSettings(userId, update);
        return success(description);
      },
    );
  }

  for (const path of [API_PATHS.forgotPassword, API_PATHS.forgotPassword2]) {
    app.put(
      path,
      {
        config: { rateLimit: publicRateLimit },
        schema: {
          tags: ['accounts'],
          summary:
            'Request a reset code with {user_name}, or set a new password with {user_name, password, verification_code}',
          security: [],
          body: ForgotPasswordBodySchema,
          response: { 200: SuccessBodySchema },
        },
      },
      async (request) => {
        const { user_name, password, verification_code } = request.body;
        if (password !== undefined && verification_code !== undefined) {
          await accounts.resetPassword(user_name, verification_code, password);
          return success(MESSAGES.passwordChanged);
        }
        await accounts.requestPasswordReset(user_name);
        return success(SERVER_MESSAGES.forgotCodeSent);
      },
    );
  }

  app.post(
    API_PATHS.userTotp,
    {
      preValidation: requireAuth(auth, 'user.self'),
      config: { rateLimit: publicRateLimit },
      schema: {
        tags: ['accounts'],
        summary: 'Start setting up an authenticator app: a new secret, its otpauth URI and QR code',
        response: { 200: TotpBeginResponseSchema },
      },
    },
    async (request) => {
      const { user } = authOf(request);
      const begun = await mfa.beginTotp(user.userId, user.userName);
      return {
        ...success(SERVER_MESSAGES.totpStarted),
        secret: begun.secret,
        otpauth_uri: begun.otpauthUri,
        qr_code: begun.qrCode,
      };
    },
  );

  app.put(
    API_PATHS.userTotp,
    {
      preValidation: requireAuth(auth, 'user.self'),
      config: { rateLimit: publicRateLimit },
      schema: {
        tags: ['accounts'],
        summary:
          'Confirm the authenticator app with a code (5 wrong codes: 429); answers 10 one-use recovery codes',
        body: TotpCodeBodySchema,
        response: { 200: TotpConfirmResponseSchema },
      },
    },
    async (request) => {
      const codes = await mfa.confirmTotp(authOf(request).user.userId, request.body.code);
      return { ...success(SERVER_MESSAGES.totpEnabled), recovery_codes: codes };
    },
  );

  app.delete(
    API_PATHS.userTotp,
    {
      preValidation: requireAuth(auth, 'user.self'),
      config: { rateLimit: publicRateLimit },
      schema: {
        tags: ['accounts'],
        summary: 'Remove the authenticator app (needs a current code from it; 5 wrong codes: 429)',
        body: TotpCodeBodySchema,
        response: { 200: SuccessBodySchema },
      },
    },
    async (request) => {
      await mfa.disableTotp(authOf(request).user.userId, request.body.code);
      return success(SERVER_MESSAGES.totpDisabled);
    },
  );
};

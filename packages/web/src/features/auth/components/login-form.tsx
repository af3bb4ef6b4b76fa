import {
  INPUT_MAX_LENGTH,
  MESSAGES,
  PASSWORD_MAX_LENGTH,
  type LoginForm as LoginFormValues,
} from '@fleetdeck/contract';
import { Alert, Anchor, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { SecretInput } from '../../../components/secret-input';
import { errorMessage } from '../../../lib/api-error';
import { collectFormErrors, type FormErrors } from '../../../lib/form-errors';
import { loadSchemas } from '../../../lib/lazy-schemas';
import { useFocusFirstInvalid } from '../../../lib/use-focus-first-invalid';
import {
  FORGOT_PASSWORD_PATH,
  MFA_VERIFICATION_PATH,
  PRIVACY_POLICY_PATH,
  SIGN_UP_PATH,
  TERMS_OF_SERVICE_PATH,
  UNAUTHORISED_PATH,
} from '../../../lib/paths';
import { POLICY_LABELS } from '../../policies/labels';
import { isCustomerMode, useDeploymentInfo } from '../api/deployment-info.query';
import { useSignIn } from '../api/login.mutation';
import { SocialSignIn } from './social-sign-in';

type Field = keyof LoginFormValues;
const FIELDS: readonly Field[] = ['user_name', 'password'];
const EMPTY: LoginFormValues = { user_name: '', password: '' };

/**
 * Email and password sign-in (access §2, §4, §5). Validates with the contract's LoginFormSchema;
 * the server's failure description is shown above the button. Navigation after a successful
 * sign-in is the login route's job (it follows the signed-in user).
 */
export function LoginForm() {
  const navigate = useNavigate();
  const { state: returnState } = useLocation() as { state: unknown };
  const deploymentInfo = useDeploymentInfo();
  const signIn = useSignIn();
  const [values, setValues] = useState<LoginFormValues>(EMPTY);
  const [errors, setErrors] = useState<FormErrors<Field>['fields']>({});
  const [validating, setValidating] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();

  const info = deploymentInfo.data;
  const customerMode = isCustomerMode(info);
  const showSignUp = info !== undefined && !customerMode;
  const providers = info !== undefined && !customerMode ? info.social_providers : [];

  const update = (field: Field, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
    if (signIn.isError) signIn.reset();
    if (loadFailed) setLoadFailed(false);
  };

  const validateAndSignIn = async () => {
    let schemas;
    setValidating(true);
    try {
      schemas = await loadSchemas();
    } catch {
      setLoadFailed(true);
      return;
    } finally {
      setValidating(false);
    }
    const parsed = schemas.LoginFormSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(collectFormErrors(parsed.error, FIELDS).fields);
      focusFirstInvalid();
      return;
    }
    setErrors({});
    signIn.mutate(parsed.data, {
      onSuccess: (outcome) => {
        if (outcome.kind === 'unauthorised') void navigate(UNAUTHORISED_PATH, { replace: true });
        // The MFA step carries on where the operator was going (see useContinueSignIn).
        if (outcome.kind === 'mfa') void navigate(MFA_VERIFICATION_PATH, { state: returnState });
      },
    });
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (signIn.isPending || validating) return;
    void validateAndSignIn();
  };

  const failure = loadFailed
    ? MESSAGES.somethingWentWrong
    : signIn.isError
      ? errorMessage(signIn.error)
      : null;

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} size="h2">
          Sign in to Fleetdeck
        </Title>
        <Text c="dimmed" size="sm">
          Manage your fleet of connected appliances.
        </Text>
      </Stack>

      <SocialSignIn providers={providers} />

      <form ref={formRef} onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Email"
            name="user_name"
            type="email"
            autoComplete="username"
            inputMode="email"
            placeholder="you@example.com"
            maxLength={INPUT_MAX_LENGTH}
            value={values.user_name}
            onChange={(event) => update('user_name', event.currentTarget.value)}
            error={errors.user_name}
            required
            withAsterisk={false}
          />
          <SecretInput
            label="Password"
            name="password"
            autoComplete="current-password"
            maxLength={PASSWORD_MAX_LENGTH}
            value={values.password}
            onChange={(event) => update('password', event.currentTarget.value)}
            error={errors.password}
            required
            withAsterisk={false}
          />
          <Group justify="flex-end" mt={-6}>
            <Anchor component={Link} to={FORGOT_PASSWORD_PATH} size="sm">
              Forgot password?
            </Anchor>
          </Group>
          {failure !== null && (
            <Alert
              color="red"
              variant="light"
              icon={<IconAlertCircle size={18} aria-hidden="true" />}
              role="alert"
            >
              {failure}
            </Alert>
          )}
          <Button type="submit" size="md" fullWidth loading={signIn.isPending || validating}>
            Sign in
          </Button>
        </Stack>
      </form>

      {showSignUp && (
        <Text size="sm" ta="center">
          Don&apos;t have an account?{' '}
          <Anchor component={Link} to={SIGN_UP_PATH} fw={500}>
            Sign up
          </Anchor>
        </Text>
      )}

      <Group justify="center" gap="lg" data-testid="policy-links">
        <Anchor component={Link} to={PRIVACY_POLICY_PATH} size="xs" c="dimmed">
          {POLICY_LABELS.privacyPolicy}
        </Anchor>
        <Anchor component={Link} to={TERMS_OF_SERVICE_PATH} size="xs" c="dimmed">
          {POLICY_LABELS.termsOfService}
        </Anchor>
      </Group>
    </Stack>
  );
}

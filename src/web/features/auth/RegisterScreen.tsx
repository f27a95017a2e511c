import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { RegisterRequest } from '../../../common/schemas/auth';
import { EMAIL_MAX_LENGTH } from '../../../common/schemas/values';
import { errorMessage } from '../../api';
import { pageTitle } from '../../config';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { MessageModal, type ModalMessage } from '../../ui/Modal';
import { Card, Lead, Page } from '../../ui/Page';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { CodeStep } from '../verify/CodeStep';
import styles from './Auth.module.css';
import { institutionsQuery, register } from './authApi';
import { AUTH_REDIRECT_DELAY_MS } from './redirects';
import { StepIndicator } from './StepIndicator';

const STEPS = [msg`Institution`, msg`Account`] as const;

type Registration = RegisterRequest;

const EMPTY_REGISTRATION: Registration = {
  institution_name: '',
  name: '',
  email: '',
  password: '',
  confirm_password: '',
};

function useInstitutions() {
  const query = useQuery(institutionsQuery());
  useEffect(() => {
    // Spec section 8: a failure to load institutions is only logged.
    if (query.error) console.error('Could not load institutions', query.error);
  }, [query.error]);
  return query;
}

export function RegisterScreen() {
  const { t, i18n } = useLingui();
  const stepCount = STEPS.length;
  useDocumentTitle(pageTitle(t`Register`));
  const navigate = useNavigate();
  const institutions = useInstitutions();
  const [step, setStep] = useState<1 | 2>(1);
  const [values, setValues] = useState<Registration>(EMPTY_REGISTRATION);
  const [message, setMessage] = useState<ModalMessage | null>(null);
  const [submitting, setSubmitting] = useState(false);
  /** Design section 8: the account can sign in once the address is proven with the mailed code. */
  const [awaitingCode, setAwaitingCode] = useState<string | null>(null);
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const movedStep = useRef(false);
  const redirectTimer = useRef<number | undefined>(undefined);
  // A ref, not the state: a quick double submit arrives before React re-renders.
  const inFlight = useRef(false);

  useEffect(() => () => window.clearTimeout(redirectTimer.current), []);

  // Moving between steps replaces the fields; focus the new step's heading so it is announced.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the step changes.
  useEffect(() => {
    if (movedStep.current) stepHeading.current?.focus();
  }, [step]);

  const update = (field: keyof Registration) => (event: { currentTarget: { value: string } }) => {
    const { value } = event.currentTarget;
    setValues((current) => ({ ...current, [field]: value }));
  };

  const missingInformation = (text: string): ModalMessage => ({
    title: t`Missing information`,
    text,
    tone: 'error',
  });

  function goToStep(target: 1 | 2) {
    movedStep.current = true;
    setStep(target);
  }

  async function submit() {
    if (Object.values(values).some((value) => value.trim() === '')) {
      setMessage(missingInformation(t`Please fill in all required fields`));
      return;
    }
    inFlight.current = true;
    setSubmitting(true);
    try {
      await register(values);
      setAwaitingCode(values.email.trim().toLowerCase());
    } catch (error) {
      setMessage({
        title: t`Registration failed`,
        text: errorMessage(error, t`Registration failed`),
        tone: 'error',
      });
      inFlight.current = false;
      setSubmitting(false);
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (inFlight.current) return;
    if (step === 2) {
      void submit();
    } else if (!values.institution_name || values.name.trim() === '') {
      setMessage(missingInformation(t`Please select an institution and enter your full name`));
    } else {
      goToStep(2);
    }
  }

  return (
    <Page width="narrow">
      <Card>
        <h1>
          <Trans>Register</Trans>
        </h1>
        <Lead>
          <Trans>Create your account to take wellness check-ins.</Trans>
        </Lead>
        <StepIndicator steps={STEPS.map((label) => i18n._(label))} current={step} />
        {awaitingCode && (
          <CodeStep
            email={awaitingCode}
            purpose={t`Enter it here to confirm your address. Your account can sign in once it is confirmed.`}
            onConfirmed={(confirmation) => {
              setMessage({ title: t`Account created`, text: confirmation.message, tone: 'success' });
              redirectTimer.current = window.setTimeout(() => navigate('/login/'), AUTH_REDIRECT_DELAY_MS);
            }}
          />
        )}
        {awaitingCode === null && (
          <>
            {/* The spec's messages replace browser validation here, so the form opts out of it. */}
            <form className={styles.form} onSubmit={onSubmit} noValidate>
              <h2 ref={stepHeading} tabIndex={-1} className={styles.stepHeading}>
                {step === 1 ? (
                  <Trans>
                    Step {step} of {stepCount}: Your institution
                  </Trans>
                ) : (
                  <Trans>
                    Step {step} of {stepCount}: Your account
                  </Trans>
                )}
              </h2>
              {step === 1 ? (
                <>
                  <SelectField
                    label={t`Institution`}
                    name="institution_name"
                    value={values.institution_name}
                    onChange={update('institution_name')}
                    hint={
                      <Trans>
                        Don't see your institution? <Link to="/#contact">Contact sales</Link> to add it.
                      </Trans>
                    }
                    required
                  >
                    <option value="">
                      {institutions.isPending ? t`Loading institutions...` : t`Select your institution`}
                    </option>
                    {institutions.data?.map((institution) => (
                      <option key={institution.id} value={institution.institution_name}>
                        {institution.institution_name}
                      </option>
                    ))}
                  </SelectField>
                  <TextField
                    label={t`Full Name`}
                    name="name"
                    autoComplete="name"
                    value={values.name}
                    onChange={update('name')}
                    maxLength={200}
                    required
                  />
                  {/* Keyed buttons: the click on Previous must not find itself turned into Next. */}
                  <div className={styles.actions}>
                    <Button key="next" type="submit">
                      <Trans>Next</Trans>
                    </Button>
                  </div>
                </>
              ) : (
                <>
                  <TextField
                    label={t`Email`}
                    name="email"
                    type="email"
                    autoComplete="email"
                    hint={t`Use your institution email address.`}
                    value={values.email}
                    onChange={update('email')}
                    maxLength={EMAIL_MAX_LENGTH}
                    required
                  />
                  <TextField
                    label={t`Password`}
                    name="password"
                    type="password"
                    autoComplete="new-password"
                    hint={t`At least 8 characters.`}
                    value={values.password}
                    onChange={update('password')}
                    required
                  />
                  <TextField
                    label={t`Confirm Password`}
                    name="confirm_password"
                    type="password"
                    autoComplete="new-password"
                    value={values.confirm_password}
                    onChange={update('confirm_password')}
                    required
                  />
                  <div className={styles.actions}>
                    <Button key="previous" variant="secondary" onClick={() => goToStep(1)}>
                      <Trans>Previous</Trans>
                    </Button>
                    <Button key="submit" type="submit" busy={submitting}>
                      <Trans>Submit</Trans>
                    </Button>
                  </div>
                </>
              )}
            </form>
          </>
        )}
        <p className={styles.alternate}>
          <Trans>
            Already have an account? <Link to="/login/">Login</Link>
          </Trans>
        </p>
      </Card>
      <MessageModal message={message} onClose={() => setMessage(null)} />
    </Page>
  );
}

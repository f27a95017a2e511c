import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { completeSso } from '../../../common/endpoints/sso';
import type { SsoSettingsResponse } from '../../../common/schemas/sso';
import { errorMessage, hasErrorCode } from '../../api';
import { Button } from '../../ui/Button';
import { TextAreaField, TextField } from '../../ui/Field';
import { Flash, useFlash } from '../../ui/Flash';
import { LoadError } from '../../ui/LoadError';
import { Card } from '../../ui/Page';
import { LoadingStatus } from '../admin/AdminOnly';
import { useStepUp } from '../security/StepUp';
import styles from './Settings.module.css';
import { disableSso, fetchSso, SSO_QUERY_KEY, saveSso, testSsoConnection } from './ssoApi';

/** Where the provider sends people back: what the admin registers with the provider. */
const callbackUrl = () => new URL(completeSso.path, window.location.origin).href;

/** Single sign-on through the institution's OpenID Connect provider (design section 11). */
export function SingleSignOnSection() {
  const { t } = useLingui();
  const query = useQuery({ queryKey: SSO_QUERY_KEY, queryFn: fetchSso });
  return (
    <Card className={styles.section}>
      <h2 className={styles.sectionTitle} id="sso-heading">
        <Trans>Single sign-on</Trans>
      </h2>
      {query.isPending ? (
        <LoadingStatus>
          <Trans>Loading single sign-on...</Trans>
        </LoadingStatus>
      ) : query.isError ? (
        <LoadError message={t`Failed to load single sign-on`} onRetry={() => void query.refetch()} />
      ) : (
        <SingleSignOnForm initial={query.data} />
      )}
    </Card>
  );
}

const domainList = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((domain) => domain.trim())
    .filter(Boolean);

function SingleSignOnForm({ initial }: { initial: SsoSettingsResponse }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const { flash, showFlash } = useFlash();
  const sso = initial.sso;
  const [issuer, setIssuer] = useState(sso?.issuer ?? '');
  const [clientId, setClientId] = useState(sso?.client_id ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [domains, setDomains] = useState(sso?.domains.join('\n') ?? '');
  const [studentPasswords, setStudentPasswords] = useState(sso?.student_password_sign_in ?? true);

  // A change to how people sign in asks for the admin's second factor again, then goes through.
  const { confirmed, dialog } = useStepUp();
  const saved = (answer: SsoSettingsResponse, text: string) => {
    queryClient.setQueryData(SSO_QUERY_KEY, answer);
    setClientSecret('');
    showFlash(text);
  };
  // Switching on, or pointing at another provider, waits for a test of that very provider.
  const testNoteId = useId();
  const providerOf = (settings: { issuer: string; client_id: string }) =>
    `${settings.issuer.trim()} ${settings.client_id.trim()}`;
  const provider = providerOf({ issuer, client_id: clientId });
  const [tested, setTested] = useState<{ provider: string; ok: boolean; message: string } | null>(null);
  const save = useMutation({
    mutationFn: (settings: Parameters<typeof saveSso>[0]) => confirmed(() => saveSso(settings)),
    onSuccess: (answer) => saved(answer, t`Single sign-on saved.`),
    onError: (error, settings) => {
      const message = errorMessage(error, t`Single sign-on could not be saved.`);
      // The server holds the test that counts (it lapses after an hour, and another admin may test
      // other settings since): its refusal replaces this screen's pass, so the note says what to do.
      if (hasErrorCode(error, 'CONNECTION_UNTESTED'))
        setTested({ provider: providerOf(settings), ok: false, message });
      showFlash(message, 'error');
    },
  });
  const changesProvider = !sso || sso.issuer !== issuer.trim() || sso.client_id !== clientId.trim();
  const testedNow = tested?.provider === provider ? tested : null;
  const mayEnable = !changesProvider || testedNow?.ok === true;
  const test = useMutation({
    mutationFn: () => testSsoConnection({ issuer: issuer.trim(), client_id: clientId.trim() }),
    onSuccess: (answer) => setTested({ provider, ok: true, message: answer.message }),
    onError: (error) =>
      setTested({ provider, ok: false, message: errorMessage(error, t`The provider could not be tested.`) }),
  });
  const switchOff = useMutation({
    mutationFn: () => confirmed(disableSso),
    onSuccess: (answer) => saved(answer, t`Single sign-on is off: everyone signs in with a password.`),
    onError: (error) => showFlash(errorMessage(error, t`Single sign-on could not be switched off.`), 'error'),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!mayEnable || save.isPending) return;
    save.mutate({
      issuer: issuer.trim(),
      client_id: clientId.trim(),
      ...(clientSecret ? { client_secret: clientSecret } : {}),
      domains: domainList(domains),
      student_password_sign_in: studentPasswords,
    });
  }

  const signInAddress = callbackUrl();
  return (
    <>
      <Flash flash={flash} floating />
      {dialog}
      <p className={`${styles.muted} ${styles.intro}`}>
        {sso
          ? t`On: people with these addresses can sign in with their university account.`
          : t`Off: everyone signs in with a password.`}{' '}
        <Trans>
          Register this sign-in address with your provider:{' '}
          <code className={styles.code}>{signInAddress}</code>
        </Trans>
      </p>
      <form className={styles.form} onSubmit={submit} noValidate aria-labelledby="sso-heading">
        <TextField
          label={t`Issuer URL`}
          hint={t`Your provider's issuer, exactly as it names itself, e.g. https://login.example.edu`}
          type="url"
          inputMode="url"
          autoComplete="off"
          value={issuer}
          onChange={(event) => setIssuer(event.target.value)}
        />
        <TextField
          label={t`Client ID`}
          autoComplete="off"
          value={clientId}
          onChange={(event) => setClientId(event.target.value)}
        />
        <TextField
          label={t`Client secret`}
          hint={
            sso?.has_client_secret
              ? t`A secret is stored. Leave empty to keep it; type a new one to replace it.`
              : t`No secret is stored.`
          }
          type="password"
          autoComplete="new-password"
          value={clientSecret}
          onChange={(event) => setClientSecret(event.target.value)}
        />
        <TextAreaField
          label={t`Email domains`}
          hint={t`Addresses of these domains sign in this way. One per line, e.g. example.edu.`}
          rows={2}
          value={domains}
          onChange={(event) => setDomains(event.target.value)}
        />
        <label className={styles.checkbox}>
          <input
            type="checkbox"
            checked={studentPasswords}
            onChange={(event) => setStudentPasswords(event.currentTarget.checked)}
          />
          <Trans>Students may also sign in with a password</Trans>
        </label>
        <div className={styles.buttons}>
          <Button
            variant="secondary"
            busy={test.isPending}
            disabled={!issuer.trim() || !clientId.trim()}
            onClick={() => !test.isPending && test.mutate()}
          >
            <Trans>Test connection</Trans>
          </Button>
          {/* aria-disabled, not disabled: it stays in the tab order, and its note says why. */}
          <Button
            type="submit"
            busy={save.isPending}
            aria-disabled={!mayEnable || undefined}
            aria-describedby={testNoteId}
          >
            {sso ? t`Save single sign-on` : t`Switch single sign-on on`}
          </Button>
          {sso && (
            <Button variant="secondary" busy={switchOff.isPending} onClick={() => switchOff.mutate()}>
              <Trans>Switch single sign-on off</Trans>
            </Button>
          )}
        </div>
        <p
          id={testNoteId}
          className={testedNow && !testedNow.ok ? styles.problem : styles.muted}
          role="status"
        >
          {testedNow
            ? testedNow.message
            : changesProvider
              ? t`Test the connection to this provider before single sign-on can be switched on.`
              : t`The provider is unchanged.`}
        </p>
      </form>
    </>
  );
}

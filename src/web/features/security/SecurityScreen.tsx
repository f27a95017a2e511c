import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { PASSKEY_NAME_MAX, type PasskeySummary } from '../../../common/schemas/passkeys';
import { errorMessage } from '../../api';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { Flash, useFlash } from '../../ui/Flash';
import { LoadError } from '../../ui/LoadError';
import { Card, Lead, Page } from '../../ui/Page';
import { AdminOnly, LoadingStatus } from '../admin/AdminOnly';
import {
  addPasskey,
  isBrowserRefusal,
  PASSKEY_NOT_USED,
  usePasskeysSupported,
} from '../second-factor/passkeys';
import styles from '../settings/Settings.module.css';
import { useZonedFormat } from '../time/ZonedTime';
import { useStepUp } from './StepUp';
import { fetchPasskeys, PASSKEYS_QUERY_KEY, removePasskey, replaceRecoveryCodes } from './securityApi';

const TITLE = msg`Security`;

/** The staff member's own sign-in: their passkeys and recovery codes. Every staff role opens it. */
export function SecurityScreen() {
  const { t, i18n } = useLingui();
  return (
    <AdminOnly ability="dashboard" title={i18n._(TITLE)} loadingText={t`Loading security...`}>
      <Security />
    </AdminOnly>
  );
}

function Security() {
  const { i18n } = useLingui();
  const { flash, showFlash } = useFlash();
  const stepUp = useStepUp();
  return (
    <Page width="medium">
      <h1>{i18n._(TITLE)}</h1>
      <Lead>
        <Trans>How you sign in. Every change is mailed to you and needs your second factor again.</Trans>
      </Lead>
      <Flash flash={flash} floating />
      <PasskeysSection confirmed={stepUp.confirmed} showFlash={showFlash} />
      <RecoveryCodesSection confirmed={stepUp.confirmed} showFlash={showFlash} />
      {stepUp.dialog}
    </Page>
  );
}

interface SectionProps {
  confirmed: ReturnType<typeof useStepUp>['confirmed'];
  showFlash: ReturnType<typeof useFlash>['showFlash'];
}

export function PasskeysSection({ confirmed, showFlash }: SectionProps) {
  const { t } = useLingui();
  const formatTime = useZonedFormat();
  const when = (at: string | null) => (at ? formatTime(at) : t`Never`);
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: PASSKEYS_QUERY_KEY, queryFn: fetchPasskeys });
  const supported = usePasskeysSupported();
  const [name, setName] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: PASSKEYS_QUERY_KEY });
  const add = useMutation({
    mutationFn: (passkeyName: string) => confirmed(() => addPasskey(passkeyName)),
    onSuccess: () => {
      setName('');
      showFlash(t`Your passkey is added.`);
      void refresh();
    },
    onError: (error) =>
      showFlash(
        isBrowserRefusal(error) ? PASSKEY_NOT_USED : errorMessage(error, t`The passkey could not be added.`),
        'error',
      ),
  });
  const remove = useMutation({
    mutationFn: (passkey: PasskeySummary) => confirmed(() => removePasskey(passkey.id)),
    onSuccess: (_answer, passkey) => {
      const { name: removed } = passkey;
      showFlash(t`"${removed}" is removed.`);
      void refresh();
    },
    onError: (error) => showFlash(errorMessage(error, t`The passkey could not be removed.`), 'error'),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    add.mutate(name.trim());
  }

  return (
    <Card className={styles.section}>
      <h2 className={styles.sectionTitle} id="passkeys-heading">
        <Trans>Passkeys</Trans>
      </h2>
      {query.isPending ? (
        <LoadingStatus>
          <Trans>Loading passkeys...</Trans>
        </LoadingStatus>
      ) : query.isError ? (
        <LoadError message={t`Failed to load your passkeys`} onRetry={() => void query.refetch()} />
      ) : query.data.passkeys.length === 0 ? (
        <p className={styles.muted}>
          <Trans>You have no passkey.</Trans>
        </p>
      ) : (
        <ul aria-labelledby="passkeys-heading">
          {query.data.passkeys.map((passkey) => {
            const { name: passkeyName } = passkey;
            const added = when(passkey.created_at);
            const lastUsed = when(passkey.last_used_at);
            return (
              <li key={passkey.id}>
                <strong>{passkeyName}</strong>{' '}
                <span className={styles.muted}>
                  <Trans>
                    added {added}, last used {lastUsed}
                  </Trans>
                </span>{' '}
                <Button
                  variant="secondary"
                  size="small"
                  busy={remove.isPending && remove.variables?.id === passkey.id}
                  aria-label={t`Remove passkey ${passkeyName}`}
                  onClick={() => remove.mutate(passkey)}
                >
                  <Trans>Remove</Trans>
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      {supported && (
        <form className={styles.form} onSubmit={submit} noValidate aria-label={t`Add a passkey`}>
          <TextField
            label={t`Name of the new passkey`}
            hint={t`So you can tell your passkeys apart, e.g. Work laptop`}
            maxLength={PASSKEY_NAME_MAX}
            autoComplete="off"
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
          <div className={styles.buttons}>
            <Button type="submit" busy={add.isPending}>
              <Trans>Add a passkey</Trans>
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}

export function RecoveryCodesSection({ confirmed, showFlash }: SectionProps) {
  const { t } = useLingui();
  const replace = useMutation({
    mutationFn: () => confirmed(replaceRecoveryCodes),
    onSuccess: (answer) => showFlash(answer.message),
    onError: (error) => showFlash(errorMessage(error, t`The recovery codes could not be replaced.`), 'error'),
  });
  return (
    <Card className={styles.section}>
      <h2 className={styles.sectionTitle} id="recovery-heading">
        <Trans>Recovery codes</Trans>
      </h2>
      <p className={styles.muted}>
        <Trans>Ten single-use codes for when your app or passkey is not at hand.</Trans>
      </p>
      {replace.data && (
        <section aria-label={t`Your new recovery codes`}>
          <p>
            <Trans>Keep these somewhere safe: they are shown only this once.</Trans>
          </p>
          <ul>
            {replace.data.recovery_codes.map((code) => (
              <li key={code}>
                <code className={styles.code}>{code}</code>
              </li>
            ))}
          </ul>
        </section>
      )}
      <div className={styles.buttons}>
        <Button variant="secondary" busy={replace.isPending} onClick={() => replace.mutate()}>
          <Trans>Replace recovery codes</Trans>
        </Button>
      </div>
    </Card>
  );
}

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

const TITLE = 'Security';

/** The staff member's own sign-in: their passkeys and recovery codes. Every staff role opens it. */
export function SecurityScreen() {
  return (
    <AdminOnly ability="dashboard" title={TITLE} loadingText="Loading security...">
      <Security />
    </AdminOnly>
  );
}

function Security() {
  const { flash, showFlash } = useFlash();
  const stepUp = useStepUp();
  return (
    <Page width="medium">
      <h1>{TITLE}</h1>
      <Lead>How you sign in. Every change is mailed to you and needs your second factor again.</Lead>
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
  const formatTime = useZonedFormat();
  const when = (at: string | null) => (at ? formatTime(at) : 'Never');
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: PASSKEYS_QUERY_KEY, queryFn: fetchPasskeys });
  const supported = usePasskeysSupported();
  const [name, setName] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: PASSKEYS_QUERY_KEY });
  const add = useMutation({
    mutationFn: (passkeyName: string) => confirmed(() => addPasskey(passkeyName)),
    onSuccess: () => {
      setName('');
      showFlash('Your passkey is added.');
      void refresh();
    },
    onError: (error) =>
      showFlash(
        isBrowserRefusal(error) ? PASSKEY_NOT_USED : errorMessage(error, 'The passkey could not be added.'),
        'error',
      ),
  });
  const remove = useMutation({
    mutationFn: (passkey: PasskeySummary) => confirmed(() => removePasskey(passkey.id)),
    onSuccess: (_answer, passkey) => {
      showFlash(`"${passkey.name}" is removed.`);
      void refresh();
    },
    onError: (error) => showFlash(errorMessage(error, 'The passkey could not be removed.'), 'error'),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    add.mutate(name.trim());
  }

  return (
    <Card className={styles.section}>
      <h2 className={styles.sectionTitle} id="passkeys-heading">
        Passkeys
      </h2>
      {query.isPending ? (
        <LoadingStatus>Loading passkeys...</LoadingStatus>
      ) : query.isError ? (
        <LoadError message="Failed to load your passkeys" onRetry={() => void query.refetch()} />
      ) : query.data.passkeys.length === 0 ? (
        <p className={styles.muted}>You have no passkey.</p>
      ) : (
        <ul aria-labelledby="passkeys-heading">
          {query.data.passkeys.map((passkey) => (
            <li key={passkey.id}>
              <strong>{passkey.name}</strong>{' '}
              <span className={styles.muted}>
                added {when(passkey.created_at)}, last used {when(passkey.last_used_at)}
              </span>{' '}
              <Button
                variant="secondary"
                size="small"
                busy={remove.isPending && remove.variables?.id === passkey.id}
                aria-label={`Remove passkey ${passkey.name}`}
                onClick={() => remove.mutate(passkey)}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      {supported && (
        <form className={styles.form} onSubmit={submit} noValidate aria-label="Add a passkey">
          <TextField
            label="Name of the new passkey"
            hint="So you can tell your passkeys apart, e.g. Work laptop"
            maxLength={PASSKEY_NAME_MAX}
            autoComplete="off"
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
          <div className={styles.buttons}>
            <Button type="submit" busy={add.isPending}>
              Add a passkey
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}

export function RecoveryCodesSection({ confirmed, showFlash }: SectionProps) {
  const replace = useMutation({
    mutationFn: () => confirmed(replaceRecoveryCodes),
    onSuccess: (answer) => showFlash(answer.message),
    onError: (error) => showFlash(errorMessage(error, 'The recovery codes could not be replaced.'), 'error'),
  });
  return (
    <Card className={styles.section}>
      <h2 className={styles.sectionTitle} id="recovery-heading">
        Recovery codes
      </h2>
      <p className={styles.muted}>Ten single-use codes for when your app or passkey is not at hand.</p>
      {replace.data && (
        <section aria-label="Your new recovery codes">
          <p>Keep these somewhere safe: they are shown only this once.</p>
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
          Replace recovery codes
        </Button>
      </div>
    </Card>
  );
}

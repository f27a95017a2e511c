import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '../../api';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { Flash, useFlash } from '../../ui/Flash';
import { LoadError } from '../../ui/LoadError';
import { LoadingStatus } from '../admin/AdminOnly';
import {
  fetchLegalHolds,
  LEGAL_HOLDS_QUERY_KEY,
  liftLegalHold,
  placeLegalHold,
  RETENTION_QUERY_KEY,
} from './retentionApi';
import styles from './Settings.module.css';

/** Students whose data no purge touches, with the forms that place and lift a hold. */
export function LegalHolds() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const { flash, showFlash } = useFlash();
  const query = useQuery({ queryKey: LEGAL_HOLDS_QUERY_KEY, queryFn: fetchLegalHolds });
  const [email, setEmail] = useState('');
  const [reason, setReason] = useState('');
  const [liftReason, setLiftReason] = useState('');
  const changed = (text: string) => {
    void queryClient.invalidateQueries({ queryKey: LEGAL_HOLDS_QUERY_KEY });
    void queryClient.invalidateQueries({ queryKey: RETENTION_QUERY_KEY });
    showFlash(text);
  };
  const place = useMutation({
    mutationFn: placeLegalHold,
    onSuccess: () => {
      setEmail('');
      setReason('');
      changed(t`Legal hold placed.`);
    },
    onError: (error) => showFlash(errorMessage(error, t`The legal hold could not be placed.`), 'error'),
  });
  const lift = useMutation({
    mutationFn: (id: number) => liftLegalHold(id, liftReason.trim()),
    onSuccess: () => {
      setLiftReason('');
      changed(t`Legal hold lifted.`);
    },
    onError: (error) => showFlash(errorMessage(error, t`The legal hold could not be lifted.`), 'error'),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    place.mutate({ email: email.trim(), reason: reason.trim() });
  }

  return (
    <>
      <Flash flash={flash} floating />
      <h3 className={styles.subheading} id="legal-holds-heading">
        <Trans>Legal holds</Trans>
      </h3>
      {query.isPending ? (
        <LoadingStatus>
          <Trans>Loading legal holds...</Trans>
        </LoadingStatus>
      ) : query.isError ? (
        <LoadError message={t`Failed to load legal holds`} onRetry={() => void query.refetch()} />
      ) : query.data.holds.length === 0 ? (
        <p className={styles.muted}>
          <Trans>No student is under a legal hold.</Trans>
        </p>
      ) : (
        <>
          <TextField
            label={t`Reason for lifting a hold`}
            hint={t`Required to lift any hold below.`}
            value={liftReason}
            onChange={(event) => setLiftReason(event.target.value)}
          />
          <ul className={styles.holdList} aria-labelledby="legal-holds-heading">
            {query.data.holds.map((hold) => (
              <li key={hold.id} className={styles.hold}>
                <span>
                  <strong>{hold.email}</strong>: {hold.reason}
                </span>
                <Button
                  variant="secondary"
                  busy={lift.isPending && lift.variables === hold.id}
                  onClick={() => lift.mutate(hold.id)}
                  aria-label={t`Lift the legal hold on ${hold.email}`}
                >
                  <Trans>Lift</Trans>
                </Button>
              </li>
            ))}
          </ul>
        </>
      )}
      <form className={styles.form} onSubmit={submit} noValidate aria-label={t`Place a legal hold`}>
        <div className={styles.pair}>
          <TextField
            label={t`Student email`}
            type="email"
            autoComplete="off"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <TextField label={t`Reason`} value={reason} onChange={(event) => setReason(event.target.value)} />
        </div>
        <div className={styles.buttons}>
          <Button type="submit" variant="secondary" busy={place.isPending}>
            <Trans>Place legal hold</Trans>
          </Button>
        </div>
      </form>
    </>
  );
}

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
      changed('Legal hold placed.');
    },
    onError: (error) => showFlash(errorMessage(error, 'The legal hold could not be placed.'), 'error'),
  });
  const lift = useMutation({
    mutationFn: (id: number) => liftLegalHold(id, liftReason.trim()),
    onSuccess: () => {
      setLiftReason('');
      changed('Legal hold lifted.');
    },
    onError: (error) => showFlash(errorMessage(error, 'The legal hold could not be lifted.'), 'error'),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    place.mutate({ email: email.trim(), reason: reason.trim() });
  }

  return (
    <>
      <Flash flash={flash} floating />
      <h3 className={styles.subheading} id="legal-holds-heading">
        Legal holds
      </h3>
      {query.isPending ? (
        <LoadingStatus>Loading legal holds...</LoadingStatus>
      ) : query.isError ? (
        <LoadError message="Failed to load legal holds" onRetry={() => void query.refetch()} />
      ) : query.data.holds.length === 0 ? (
        <p className={styles.muted}>No student is under a legal hold.</p>
      ) : (
        <>
          <TextField
            label="Reason for lifting a hold"
            hint="Required to lift any hold below."
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
                  aria-label={`Lift the legal hold on ${hold.email}`}
                >
                  Lift
                </Button>
              </li>
            ))}
          </ul>
        </>
      )}
      <form className={styles.form} onSubmit={submit} noValidate aria-label="Place a legal hold">
        <div className={styles.pair}>
          <TextField
            label="Student email"
            type="email"
            autoComplete="off"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <TextField label="Reason" value={reason} onChange={(event) => setReason(event.target.value)} />
        </div>
        <div className={styles.buttons}>
          <Button type="submit" variant="secondary" busy={place.isPending}>
            Place legal hold
          </Button>
        </div>
      </form>
    </>
  );
}

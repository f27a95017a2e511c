import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { RECORDS_REQUEST_DAYS } from '../../../common/schemas/records';
import { errorMessage } from '../../api';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { Flash, useFlash } from '../../ui/Flash';
import { LoadError } from '../../ui/LoadError';
import { Card } from '../../ui/Page';
import { LoadingStatus } from '../admin/AdminOnly';
import { ZonedTime } from '../time/ZonedTime';
import styles from './Records.module.css';
import {
  fetchRecordsRequests,
  fulfilRecordsRequest,
  openRecordsRequest,
  RECORDS_REQUESTS_QUERY_KEY,
} from './recordsApi';

/** Students' requests for their records, each with its deadline until it is fulfilled. */
export function RecordsRequestsSection() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const { flash, showFlash } = useFlash();
  const query = useQuery({ queryKey: RECORDS_REQUESTS_QUERY_KEY, queryFn: fetchRecordsRequests });
  const [email, setEmail] = useState('');
  const [note, setNote] = useState('');
  const changed = (text: string) => {
    void queryClient.invalidateQueries({ queryKey: RECORDS_REQUESTS_QUERY_KEY });
    showFlash(text);
  };
  const open = useMutation({
    mutationFn: openRecordsRequest,
    onSuccess: () => {
      setEmail('');
      setNote('');
      changed(t`Records request opened.`);
    },
    onError: (error) => showFlash(errorMessage(error, t`The records request could not be opened.`), 'error'),
  });
  const fulfil = useMutation({
    mutationFn: fulfilRecordsRequest,
    onSuccess: (answer) => changed(answer.message),
    onError: (error) => showFlash(errorMessage(error, t`The records request could not be updated.`), 'error'),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    open.mutate({ email: email.trim(), ...(note.trim() ? { note: note.trim() } : {}) });
  }

  const days = RECORDS_REQUEST_DAYS;
  return (
    <Card className={styles.section}>
      <section aria-labelledby="records-requests-heading">
        <h2 className={styles.sectionTitle} id="records-requests-heading">
          <Trans>Records requests</Trans>
        </h2>
        <p className={styles.muted}>
          <Trans>
            A student&apos;s request to see their records is answered within {days} days. While one is open,
            the student&apos;s data cannot be erased.
          </Trans>
        </p>
        <Flash flash={flash} floating />
        {query.isPending ? (
          <LoadingStatus>
            <Trans>Loading records requests...</Trans>
          </LoadingStatus>
        ) : query.isError ? (
          <LoadError message={t`Failed to load records requests`} onRetry={() => void query.refetch()} />
        ) : query.data.requests.length === 0 ? (
          <p className={styles.muted}>
            <Trans>No records request yet.</Trans>
          </p>
        ) : (
          <ul className={styles.list} aria-labelledby="records-requests-heading">
            {query.data.requests.map((request) => {
              const { email: requestEmail, opened_by: openedBy } = request;
              return (
                <li key={request.id} className={styles.item}>
                  <span className={styles.itemText}>
                    <strong>{requestEmail}</strong>
                    {request.note && <span>{request.note}</span>}
                    <span>
                      {openedBy ? (
                        <Trans>
                          Opened <ZonedTime at={request.opened_at} /> by {openedBy}
                        </Trans>
                      ) : (
                        <Trans>
                          Opened <ZonedTime at={request.opened_at} />
                        </Trans>
                      )}
                    </span>
                    {request.fulfilled_at ? (
                      <span>
                        <Trans>
                          Fulfilled <ZonedTime at={request.fulfilled_at} />
                        </Trans>
                      </span>
                    ) : (
                      <span className={request.overdue ? styles.overdue : undefined}>
                        {request.overdue ? (
                          <Trans>
                            Overdue: was due <ZonedTime at={request.due_at} />
                          </Trans>
                        ) : (
                          <Trans>
                            Due <ZonedTime at={request.due_at} />
                          </Trans>
                        )}
                      </span>
                    )}
                  </span>
                  {!request.fulfilled_at && (
                    <Button
                      variant="secondary"
                      busy={fulfil.isPending && fulfil.variables === request.id}
                      onClick={() => fulfil.mutate(request.id)}
                      aria-label={t`Mark the records request of ${requestEmail} fulfilled`}
                    >
                      <Trans>Mark fulfilled</Trans>
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
        <form className={styles.form} onSubmit={submit} noValidate aria-label={t`Open a records request`}>
          <TextField
            label={t`Student email`}
            type="email"
            autoComplete="off"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <TextField
            label={t`Note (optional)`}
            hint={t`How the request arrived, for instance.`}
            value={note}
            onChange={(event) => setNote(event.target.value)}
          />
          <Button type="submit" variant="secondary" className={styles.fit} busy={open.isPending}>
            <Trans>Open records request</Trans>
          </Button>
        </form>
      </section>
    </Card>
  );
}

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
      changed('Records request opened.');
    },
    onError: (error) => showFlash(errorMessage(error, 'The records request could not be opened.'), 'error'),
  });
  const fulfil = useMutation({
    mutationFn: fulfilRecordsRequest,
    onSuccess: (answer) => changed(answer.message),
    onError: (error) => showFlash(errorMessage(error, 'The records request could not be updated.'), 'error'),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    open.mutate({ email: email.trim(), ...(note.trim() ? { note: note.trim() } : {}) });
  }

  return (
    <Card className={styles.section}>
      <section aria-labelledby="records-requests-heading">
        <h2 className={styles.sectionTitle} id="records-requests-heading">
          Records requests
        </h2>
        <p className={styles.muted}>
          A student&apos;s request to see their records is answered within {RECORDS_REQUEST_DAYS} days. While
          one is open, the student&apos;s data cannot be erased.
        </p>
        <Flash flash={flash} floating />
        {query.isPending ? (
          <LoadingStatus>Loading records requests...</LoadingStatus>
        ) : query.isError ? (
          <LoadError message="Failed to load records requests" onRetry={() => void query.refetch()} />
        ) : query.data.requests.length === 0 ? (
          <p className={styles.muted}>No records request yet.</p>
        ) : (
          <ul className={styles.list} aria-labelledby="records-requests-heading">
            {query.data.requests.map((request) => (
              <li key={request.id} className={styles.item}>
                <span className={styles.itemText}>
                  <strong>{request.email}</strong>
                  {request.note && <span>{request.note}</span>}
                  <span>
                    Opened <ZonedTime at={request.opened_at} />
                    {request.opened_by ? ` by ${request.opened_by}` : ''}
                  </span>
                  {request.fulfilled_at ? (
                    <span>
                      Fulfilled <ZonedTime at={request.fulfilled_at} />
                    </span>
                  ) : (
                    <span className={request.overdue ? styles.overdue : undefined}>
                      {request.overdue ? 'Overdue: was due ' : 'Due '}
                      <ZonedTime at={request.due_at} />
                    </span>
                  )}
                </span>
                {!request.fulfilled_at && (
                  <Button
                    variant="secondary"
                    busy={fulfil.isPending && fulfil.variables === request.id}
                    onClick={() => fulfil.mutate(request.id)}
                    aria-label={`Mark the records request of ${request.email} fulfilled`}
                  >
                    Mark fulfilled
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
        <form className={styles.form} onSubmit={submit} noValidate aria-label="Open a records request">
          <TextField
            label="Student email"
            type="email"
            autoComplete="off"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <TextField
            label="Note (optional)"
            hint="How the request arrived, for instance."
            value={note}
            onChange={(event) => setNote(event.target.value)}
          />
          <Button type="submit" variant="secondary" className={styles.fit} busy={open.isPending}>
            Open records request
          </Button>
        </form>
      </section>
    </Card>
  );
}

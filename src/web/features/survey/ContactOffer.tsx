import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useId, useState } from 'react';
import { requestContact } from '../../../common/endpoints/campaign-invitations';
import { api, errorMessage } from '../../api';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import styles from './Survey.module.css';

/**
 * After an anonymous campaign's answer: the student may ask a counsellor to contact them (design
 * section 14). Only what they fill in is sent, and their answers only if they tick the box; the
 * request alone opens a case. Everything is optional but one way of contact.
 */
export function ContactOffer({ token }: { token: string }) {
  const { t } = useLingui();
  const headingId = useId();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  const [shareAnswers, setShareAnswers] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function send(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (email.trim() === '' && phone.trim() === '') {
      setError(t`Give an email address or a phone number, so a counsellor can reach you.`);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const answer = await api.call(requestContact, {
        body: {
          contact_token: token,
          name,
          email,
          phone,
          share_answers: shareAnswers,
        },
      });
      setDone(answer.message);
    } catch (failure) {
      setError(errorMessage(failure, t`Your request could not be sent. Please try again.`));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className={styles.contactOffer} aria-labelledby={headingId}>
      <h3 id={headingId}>
        <Trans>I would like a counsellor to contact me</Trans>
      </h3>
      {done ? (
        <p role="status">{done}</p>
      ) : (
        <form onSubmit={send} noValidate className={styles.contactOffer}>
          <p>
            <Trans>
              Your answers stay anonymous. Only what you give here goes to a counsellor: an email address or a
              phone number at least, your name if you like.
            </Trans>
          </p>
          <TextField
            label={t`Your name (optional)`}
            name="contact_name"
            autoComplete="name"
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            maxLength={200}
          />
          <TextField
            label={t`Email`}
            name="contact_email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            maxLength={254}
          />
          <TextField
            label={t`Phone`}
            name="contact_phone"
            type="tel"
            autoComplete="tel"
            value={phone}
            onChange={(event) => setPhone(event.currentTarget.value)}
            maxLength={40}
          />
          <label className={styles.shareAnswers}>
            <input
              type="checkbox"
              name="share_answers"
              checked={shareAnswers}
              onChange={(event) => setShareAnswers(event.currentTarget.checked)}
            />{' '}
            <Trans>Let the counsellor read the answers I just gave</Trans>
          </label>
          <div role="alert">{error && <p className={styles.error}>{error}</p>}</div>
          <div>
            <Button type="submit" busy={busy}>
              <Trans>Ask to be contacted</Trans>
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}

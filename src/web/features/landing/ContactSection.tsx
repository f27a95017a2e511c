import { Trans, useLingui } from '@lingui/react/macro';
import { EMAIL_MAX_LENGTH } from '../../../common/schemas/values';
import { appConfig } from '../../config';
import { Button } from '../../ui/Button';
import { TextAreaField, TextField } from '../../ui/Field';
import styles from './Landing.module.css';

/**
 * The quote request: an ordinary form post (spec section 2) to the configured form handler,
 * by default our own endpoint, which answers with a thank-you page. Validation is the
 * browser's own (spec section 5).
 */
export function ContactSection() {
  const { t } = useLingui();
  return (
    <section id="contact" className={styles.section} aria-labelledby="contact-heading" tabIndex={-1}>
      <div className={`${styles.sectionInner} ${styles.contactLayout}`}>
        <div>
          <h2 id="contact-heading" className={styles.sectionHeading}>
            <Trans>Get a Quote</Trans>
          </h2>
          <p className={styles.sectionLead}>
            <Trans>
              Tell us about your institution and we will get back to you with pricing and a live walkthrough.
            </Trans>
          </p>
          <p className={styles.contactNote}>
            <Trans>Name, email and message are required.</Trans>
          </p>
        </div>
        <form className={styles.contactForm} action={appConfig.contactFormUrl} method="post">
          <TextField
            label={t`Institution *`}
            name="institution"
            autoComplete="organization"
            maxLength={200}
          />
          <div className={styles.formRow}>
            <TextField label={t`Name`} name="name" autoComplete="name" required maxLength={200} />
            <TextField
              label={t`Email`}
              name="email"
              type="email"
              autoComplete="email"
              required
              maxLength={EMAIL_MAX_LENGTH}
            />
          </div>
          <TextField
            label={t`Number of students`}
            hint={t`An estimate is fine.`}
            name="students"
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
          />
          <TextAreaField label={t`Message`} name="message" rows={5} required maxLength={5000} />
          <div>
            <Button type="submit">
              <Trans>Request a Quote</Trans>
            </Button>
          </div>
        </form>
      </div>
    </section>
  );
}

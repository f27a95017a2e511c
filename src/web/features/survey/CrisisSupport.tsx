import type { CrisisResource } from '../../../common/risk/crisis-resources';
import { ButtonLink, buttonClassName } from '../../ui/Button';
import styles from './Survey.module.css';

function smsHref(number: string, body: string | undefined): string {
  // "?&body=" is the form both iOS and Android Messages accept.
  return body ? `sms:${number}?&body=${encodeURIComponent(body)}` : `sms:${number}`;
}

function siteName(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return 'website';
  }
}

/**
 * Where to get help right now, shown after a submission that needs it (design section 5). The
 * wording stays calm and never says how the answers were assessed; every number is one tap
 * away on a phone.
 */
export function CrisisSupport({
  resources,
  headingId,
}: {
  resources: readonly CrisisResource[];
  headingId: string;
}) {
  return (
    <section className={styles.crisis} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.crisisHeading}>
        You don't have to go through this alone
      </h2>
      <p>
        If things feel hard right now, talking with someone can help. These services are free, confidential
        and there for you at any time, day or night.
      </p>
      <ul className={styles.resources}>
        {resources.map((resource) => (
          <li key={resource.name} className={styles.resource}>
            <h3 className={styles.resourceName}>{resource.name}</h3>
            <p className={styles.resourceDescription}>{resource.description}</p>
            <div className={styles.resourceActions}>
              {resource.phone && (
                <a className={buttonClassName({ variant: 'primary' })} href={`tel:${resource.phone}`}>
                  Call {resource.phone}
                </a>
              )}
              {resource.sms && (
                <a
                  className={buttonClassName({ variant: 'secondary' })}
                  href={smsHref(resource.sms, resource.sms_body)}
                >
                  {resource.sms_body
                    ? `Text ${resource.sms_body} to ${resource.sms}`
                    : `Text ${resource.sms}`}
                </a>
              )}
              {resource.url && (
                <a
                  className={buttonClassName({ variant: 'ghost' })}
                  href={resource.url}
                  target="_blank"
                  rel="noopener noreferrer"
                >
                  Visit {siteName(resource.url)}
                  <span className="visually-hidden"> (opens in a new tab)</span>
                </a>
              )}
            </div>
          </li>
        ))}
      </ul>
      <p className={styles.crisisClosing}>
        Take your time. When you are ready, you can return to the homepage.
      </p>
      <ButtonLink variant="secondary" to="/">
        Back to Homepage
      </ButtonLink>
    </section>
  );
}

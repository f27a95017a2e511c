import { type ReactNode, useId } from 'react';
import type { CrisisHelp, CrisisResource } from '../../../common/risk/crisis-resources';
import { dialString } from '../../../common/schemas/values';
import { buttonClassName } from '../../ui/Button';
import styles from './CrisisSupport.module.css';

function smsHref(number: string, body: string | undefined): string {
  // "?&body=" is the form both iOS and Android Messages accept.
  const to = dialString(number);
  return body ? `sms:${to}?&body=${encodeURIComponent(body)}` : `sms:${to}`;
}

function siteName(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return 'website';
  }
}

/** One service: its name, when it is open, what it offers, and a tap to call, text or visit. */
function Resource({ resource }: { resource: CrisisResource }) {
  return (
    <li className={styles.resource}>
      <h4 className={styles.resourceName}>{resource.name}</h4>
      {resource.hours && <p className={styles.resourceHours}>Open {resource.hours}</p>}
      <p className={styles.resourceDescription}>{resource.description}</p>
      <div className={styles.resourceActions}>
        {resource.phone && (
          <a className={buttonClassName({ variant: 'primary' })} href={`tel:${dialString(resource.phone)}`}>
            Call {resource.phone}
          </a>
        )}
        {resource.sms && (
          <a
            className={buttonClassName({ variant: 'secondary' })}
            href={smsHref(resource.sms, resource.sms_body)}
          >
            {resource.sms_body ? `Text ${resource.sms_body} to ${resource.sms}` : `Text ${resource.sms}`}
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
  );
}

function ResourceGroup({
  heading,
  intro,
  resources,
}: {
  heading: string;
  intro: string;
  resources: readonly CrisisResource[];
}) {
  const headingId = useId();
  return (
    <section className={styles.group} aria-labelledby={headingId}>
      <h3 id={headingId} className={styles.groupHeading}>
        {heading}
      </h3>
      <p className={styles.groupIntro}>{intro}</p>
      <ul className={styles.resources}>
        {resources.map((resource) => (
          <Resource key={resource.name} resource={resource} />
        ))}
      </ul>
    </section>
  );
}

/**
 * Where to get help right now, shown after a submission that needs it and, as a preview, on the
 * settings screen (design section 5). The always-open national lines are always there, and only
 * they are promised at any time; the institution's own services say their hours. The wording
 * stays calm and never says how the answers were assessed; every number is one tap away.
 * `children` is the way on (the survey's Back to Homepage).
 */
export function CrisisSupport({
  help,
  headingId,
  children,
}: {
  help: CrisisHelp;
  headingId: string;
  children?: ReactNode;
}) {
  const alwaysOpen = (
    <ResourceGroup
      key="always-open"
      heading="Any time, day or night"
      intro="These services are free, confidential and there for you at any time, day or night."
      resources={help.always_open}
    />
  );
  const institution = help.institution.length > 0 && (
    <ResourceGroup
      key="institution"
      heading="At your institution"
      intro="Your institution's own support services, open at the times shown."
      resources={help.institution}
    />
  );
  return (
    <section className={styles.crisis} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.crisisHeading}>
        You don't have to go through this alone
      </h2>
      <p>If things feel hard right now, talking with someone can help.</p>
      {help.institution_first ? [institution, alwaysOpen] : [alwaysOpen, institution]}
      <p className={styles.crisisClosing}>
        Take your time. When you are ready, you can return to the homepage.
      </p>
      {children}
    </section>
  );
}

import { Trans, useLingui } from '@lingui/react/macro';
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

/** A link's host name, or null when the address cannot be read. */
function siteName(url: string): string | null {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return null;
  }
}

/** One service: its name, when it is open, what it offers, and a tap to call, text or visit. */
function Resource({ resource }: { resource: CrisisResource }) {
  const { t } = useLingui();
  const { hours, phone, sms, sms_body: smsBody } = resource;
  const site = resource.url ? (siteName(resource.url) ?? t`website`) : '';
  return (
    <li className={styles.resource}>
      <h4 className={styles.resourceName}>{resource.name}</h4>
      {hours && (
        <p className={styles.resourceHours}>
          <Trans>Open {hours}</Trans>
        </p>
      )}
      <p className={styles.resourceDescription}>{resource.description}</p>
      <div className={styles.resourceActions}>
        {phone && (
          <a className={buttonClassName({ variant: 'primary' })} href={`tel:${dialString(phone)}`}>
            <Trans>Call {phone}</Trans>
          </a>
        )}
        {sms && (
          <a className={buttonClassName({ variant: 'secondary' })} href={smsHref(sms, smsBody)}>
            {smsBody ? t`Text ${smsBody} to ${sms}` : t`Text ${sms}`}
          </a>
        )}
        {resource.url && (
          <a
            className={buttonClassName({ variant: 'ghost' })}
            href={resource.url}
            target="_blank"
            rel="noopener noreferrer"
          >
            <Trans>Visit {site}</Trans>
            <span className="visually-hidden">
              {' '}
              <Trans>(opens in a new tab)</Trans>
            </span>
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
  const { t } = useLingui();
  const alwaysOpen = (
    <ResourceGroup
      key="always-open"
      heading={t`Any time, day or night`}
      intro={t`These services are free, confidential and there for you at any time, day or night.`}
      resources={help.always_open}
    />
  );
  const institution = help.institution.length > 0 && (
    <ResourceGroup
      key="institution"
      heading={t`At your institution`}
      intro={t`Your institution's own support services, open at the times shown.`}
      resources={help.institution}
    />
  );
  return (
    <section className={styles.crisis} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.crisisHeading}>
        <Trans>You don't have to go through this alone</Trans>
      </h2>
      <p>
        <Trans>If things feel hard right now, talking with someone can help.</Trans>
      </p>
      {help.institution_first ? [institution, alwaysOpen] : [alwaysOpen, institution]}
      <p className={styles.crisisClosing}>
        <Trans>Take your time. When you are ready, you can return to the homepage.</Trans>
      </p>
      {children}
    </section>
  );
}

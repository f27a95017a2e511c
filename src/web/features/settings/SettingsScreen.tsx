import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { ALWAYS_OPEN_CRISIS_LINES, crisisHelpFor } from '../../../common/risk/crisis-lines';
import type { CrisisResource, InstitutionCrisisResource } from '../../../common/risk/crisis-resources';
import type { InstitutionSettingsResponse } from '../../../common/schemas/settings';
import { MAX_SMALL_GROUP_THRESHOLD, MIN_SMALL_GROUP_THRESHOLD } from '../../../common/small-groups';
import { timeZoneGroups } from '../../../common/time-zones';
import { errorMessage } from '../../api';
import { LANGUAGES } from '../../app/catalogues';
import { languageName } from '../../app/languageNames';
import { Button, ButtonLink } from '../../ui/Button';
import { SelectField, TextAreaField, TextField } from '../../ui/Field';
import { Flash, useFlash } from '../../ui/Flash';
import { LoadError } from '../../ui/LoadError';
import { Card, Lead, Page } from '../../ui/Page';
import { AdminOnly, LoadingStatus } from '../admin/AdminOnly';
import layout from '../admin/AdminPage.module.css';
import { CURRENT_USER_QUERY_KEY } from '../auth/useCurrentUser';
import { CrisisSupport } from '../crisis/CrisisSupport';
import { RetentionSection } from './RetentionSection';
import styles from './Settings.module.css';
import { SingleSignOnSection } from './SingleSignOnSection';
import { fetchSettings, SETTINGS_QUERY_KEY, saveSettings } from './settingsApi';
import { type SettingsProblem, serverProblem, settingsProblem } from './settingsProblem';

const TITLE = msg`Institution settings`;

export function SettingsScreen() {
  const { t, i18n } = useLingui();
  return (
    <AdminOnly ability="settings" title={i18n._(TITLE)} loadingText={t`Loading settings...`}>
      <Settings />
    </AdminOnly>
  );
}

function Settings() {
  const { t, i18n } = useLingui();
  const query = useQuery({ queryKey: SETTINGS_QUERY_KEY, queryFn: fetchSettings });
  return (
    <Page width="medium">
      <div className={layout.heading}>
        <div>
          <h1>{i18n._(TITLE)}</h1>
          <Lead>
            <Trans>Who hears of flagged check-ins, and how soon a case must be acknowledged.</Trans>
          </Lead>
        </div>
        <nav className={layout.toolbar} aria-label={t`Settings links`}>
          <ButtonLink variant="secondary" to="/cases/">
            <Trans>Cases</Trans>
          </ButtonLink>
          <ButtonLink variant="secondary" to="/dashboard/">
            <Trans>Dashboard</Trans>
          </ButtonLink>
        </nav>
      </div>
      {query.isPending ? (
        <LoadingStatus>
          <Trans>Loading settings...</Trans>
        </LoadingStatus>
      ) : query.isError ? (
        <LoadError message={t`Failed to load settings`} onRetry={() => void query.refetch()} />
      ) : (
        <SettingsForm initial={query.data} />
      )}
      <SingleSignOnSection />
      <RetentionSection />
    </Page>
  );
}

const lines = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((line) => line.trim())
    .filter(Boolean);

type ResourceDraft = {
  name: string;
  description: string;
  hours: string;
  phone: string;
  sms: string;
  url: string;
  /** The one language whose readers are shown it; empty for readers of every language. */
  language: string;
};

const EMPTY_DRAFT: ResourceDraft = {
  name: '',
  description: '',
  hours: '',
  phone: '',
  sms: '',
  url: '',
  language: '',
};

const toDraft = (resource: CrisisResource): ResourceDraft => ({
  name: resource.name,
  description: resource.description,
  hours: resource.hours ?? '',
  phone: resource.phone ?? '',
  sms: resource.sms ?? '',
  url: resource.url ?? '',
  language: resource.language ?? '',
});

function fromDraft(draft: ResourceDraft): InstitutionCrisisResource {
  return {
    name: draft.name,
    description: draft.description,
    hours: draft.hours,
    ...(draft.phone.trim() ? { phone: draft.phone.trim() } : {}),
    ...(draft.sms.trim() ? { sms: draft.sms.trim() } : {}),
    ...(draft.url.trim() ? { url: draft.url.trim() } : {}),
    ...(draft.language ? { language: draft.language } : {}),
  };
}

const ALWAYS_OPEN_NAMES = ALWAYS_OPEN_CRISIS_LINES.map((line) => line.name).join(', ');

function SettingsForm({ initial }: { initial: InstitutionSettingsResponse }) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const { flash, showFlash } = useFlash();
  const [alertEmails, setAlertEmails] = useState(initial.alert_emails.join('\n'));
  const [escalationEmails, setEscalationEmails] = useState(initial.escalation_emails.join('\n'));
  const [urgentMinutes, setUrgentMinutes] = useState(String(initial.urgent_ack_minutes));
  const [elevatedHours, setElevatedHours] = useState(String(initial.elevated_ack_hours));
  const [timeZone, setTimeZone] = useState(initial.time_zone);
  const [resources, setResources] = useState<ResourceDraft[]>(initial.crisis_resources.map(toDraft));
  const [resourcesFirst, setResourcesFirst] = useState(initial.crisis_resources_first);
  const [smallGroup, setSmallGroup] = useState(String(initial.small_group_threshold));
  const previewHeadingId = useId();
  const problemId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  // Stays until the next save: a refusal that faded away would leave the admin guessing.
  const [problem, setProblem] = useState<SettingsProblem | null>(null);
  /** Shows what is wrong beside the form, which stays as typed, and takes focus to the field. */
  const refuse = (found: SettingsProblem) => {
    setProblem(found);
    const control = found.field ? formRef.current?.elements.namedItem(found.field) : null;
    if (control instanceof HTMLElement) control.focus();
  };
  /** Marks the control the problem is about, and has it read out with the control. */
  const invalid = (field: string) =>
    problem?.field === field ? { 'aria-invalid': true as const, 'aria-errormessage': problemId } : {};
  // What a student reading the admin's language sees, as the form stands: a resource appears
  // once it has a name.
  const preview = crisisHelpFor(
    {
      resources: resources.filter((draft) => draft.name.trim() !== '').map(fromDraft),
      first: resourcesFirst,
    },
    i18n.locale,
  );

  const save = useMutation({
    mutationFn: saveSettings,
    onSuccess: (saved) => {
      queryClient.setQueryData(SETTINGS_QUERY_KEY, saved);
      setProblem(null);
      // The signed-in user carries the time zone every staff screen shows times in.
      void queryClient.invalidateQueries({ queryKey: CURRENT_USER_QUERY_KEY });
      showFlash(t`Settings saved.`);
    },
    onError: (error) => refuse(serverProblem(errorMessage(error, t`The settings could not be saved.`))),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    const settings = {
      alert_emails: lines(alertEmails),
      escalation_emails: lines(escalationEmails),
      urgent_ack_minutes: Number(urgentMinutes),
      elevated_ack_hours: Number(elevatedHours),
      time_zone: timeZone,
      crisis_resources: resources.map(fromDraft),
      crisis_resources_first: resourcesFirst,
      small_group_threshold: Number(smallGroup),
    };
    // Checked here with the server's own rules first, so the message names the field as labelled.
    const found = settingsProblem(settings);
    if (found) refuse(found);
    else save.mutate(settings);
  }

  const updateResource = (index: number, field: keyof ResourceDraft, value: string) =>
    setResources((list) => list.map((item, at) => (at === index ? { ...item, [field]: value } : item)));

  return (
    <Card>
      <Flash flash={flash} floating />
      <form ref={formRef} className={styles.form} onSubmit={submit} noValidate>
        <fieldset className={styles.group}>
          <legend>
            <Trans>Contacts</Trans>
          </legend>
          <TextAreaField
            label={t`Alert addresses`}
            name="alert_emails"
            {...invalid('alert_emails')}
            hint={t`Mailed at once when a check-in is urgent, and daily about new cases. One per line. Without any, your admins are mailed.`}
            rows={3}
            value={alertEmails}
            onChange={(event) => setAlertEmails(event.target.value)}
          />
          <TextAreaField
            label={t`Escalation addresses`}
            name="escalation_emails"
            {...invalid('escalation_emails')}
            hint={t`Mailed when a case is not acknowledged in time, and again while it stays overdue. Without any, your admins are mailed.`}
            rows={3}
            value={escalationEmails}
            onChange={(event) => setEscalationEmails(event.target.value)}
          />
        </fieldset>
        <fieldset className={styles.group}>
          <legend>
            <Trans>Deadlines</Trans>
          </legend>
          <div className={styles.pair}>
            <TextField
              label={t`Urgent: acknowledge within (minutes)`}
              name="urgent_ack_minutes"
              {...invalid('urgent_ack_minutes')}
              type="number"
              inputMode="numeric"
              min={1}
              max={43200}
              step={1}
              value={urgentMinutes}
              onChange={(event) => setUrgentMinutes(event.target.value)}
            />
            <TextField
              label={t`Elevated: acknowledge within (hours)`}
              name="elevated_ack_hours"
              {...invalid('elevated_ack_hours')}
              hint={t`Hours to the minute, e.g. 0.5 for 30 minutes; at most 720 (30 days).`}
              type="number"
              inputMode="decimal"
              min={0}
              max={720}
              step="any"
              value={elevatedHours}
              onChange={(event) => setElevatedHours(event.target.value)}
            />
          </div>
          <SelectField
            label={t`Time zone`}
            name="time_zone"
            {...invalid('time_zone')}
            hint={t`Deadlines, escalations and the daily digest (08:00) follow this calendar.`}
            value={timeZone}
            onChange={(event) => setTimeZone(event.target.value)}
          >
            {timeZoneGroups(timeZone).map((group) => (
              <optgroup key={group.region} label={group.region}>
                {group.zones.map((zone) => (
                  <option key={zone} value={zone}>
                    {zone}
                  </option>
                ))}
              </optgroup>
            ))}
          </SelectField>
        </fieldset>
        <fieldset className={styles.group}>
          <legend>
            <Trans>Privacy</Trans>
          </legend>
          <TextField
            name="small_group_threshold"
            label={t`Smallest group shown to viewers (students)`}
            hint={t`Viewers see a figure over fewer students as "Fewer than" this number, and figures that would give it away are hidden too. Admins and counsellors see every figure. At least ${MIN_SMALL_GROUP_THRESHOLD}.`}
            type="number"
            inputMode="numeric"
            min={MIN_SMALL_GROUP_THRESHOLD}
            max={MAX_SMALL_GROUP_THRESHOLD}
            step={1}
            value={smallGroup}
            onChange={(event) => setSmallGroup(event.target.value)}
            {...invalid('small_group_threshold')}
          />
        </fieldset>
        <fieldset className={styles.group}>
          <legend>
            <Trans>Crisis resources</Trans>
          </legend>
          <p className={styles.muted}>
            <Trans>
              Shown at once to a student whose answers are urgent. The national lines that are always open (
              {ALWAYS_OPEN_NAMES}) are always shown; your own services are added to them, each with its hours.
            </Trans>
          </p>
          {resources.map((resource, index) => {
            const number = index + 1;
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: drafts have no id; their place is who they are.
              <div key={index} className={styles.resource}>
                <h3>
                  <Trans>Resource {number}</Trans>
                </h3>
                <TextField
                  label={t`Name`}
                  name={`crisis_resources.${index}.name`}
                  {...invalid(`crisis_resources.${index}.name`)}
                  value={resource.name}
                  onChange={(event) => updateResource(index, 'name', event.target.value)}
                />
                <TextField
                  label={t`Description`}
                  name={`crisis_resources.${index}.description`}
                  {...invalid(`crisis_resources.${index}.description`)}
                  value={resource.description}
                  onChange={(event) => updateResource(index, 'description', event.target.value)}
                />
                <TextField
                  label={t`Hours`}
                  name={`crisis_resources.${index}.hours`}
                  {...invalid(`crisis_resources.${index}.hours`)}
                  hint={t`When it is open, as students should read it: "weekdays 8am-6pm", or "always open".`}
                  value={resource.hours}
                  onChange={(event) => updateResource(index, 'hours', event.target.value)}
                />
                <div className={styles.pair}>
                  <TextField
                    label={t`Phone`}
                    name={`crisis_resources.${index}.phone`}
                    {...invalid(`crisis_resources.${index}.phone`)}
                    hint={t`As you write it, e.g. (617) 555-0100`}
                    inputMode="tel"
                    autoComplete="off"
                    value={resource.phone}
                    onChange={(event) => updateResource(index, 'phone', event.target.value)}
                  />
                  <TextField
                    label={t`Text number`}
                    name={`crisis_resources.${index}.sms`}
                    {...invalid(`crisis_resources.${index}.sms`)}
                    hint={t`For text messages, if it takes them`}
                    inputMode="tel"
                    autoComplete="off"
                    value={resource.sms}
                    onChange={(event) => updateResource(index, 'sms', event.target.value)}
                  />
                </div>
                <SelectField
                  label={t`Shown to students reading`}
                  name={`crisis_resources.${index}.language`}
                  {...invalid(`crisis_resources.${index}.language`)}
                  hint={t`A service that answers in one language only is best shown to its readers alone.`}
                  value={resource.language}
                  onChange={(event) => updateResource(index, 'language', event.target.value)}
                >
                  <option value="">{t`Every language`}</option>
                  {LANGUAGES.map((language) => (
                    <option key={language} value={language}>
                      {languageName(language, i18n.locale)}
                    </option>
                  ))}
                </SelectField>
                <TextField
                  label={t`Web address`}
                  name={`crisis_resources.${index}.url`}
                  {...invalid(`crisis_resources.${index}.url`)}
                  type="url"
                  value={resource.url}
                  onChange={(event) => updateResource(index, 'url', event.target.value)}
                />
                <Button
                  variant="secondary"
                  size="small"
                  className={styles.fit}
                  onClick={() => setResources((list) => list.filter((_, at) => at !== index))}
                >
                  <Trans>Remove resource {number}</Trans>
                </Button>
              </div>
            );
          })}
          <Button
            variant="secondary"
            size="small"
            className={styles.fit}
            onClick={() => setResources((list) => [...list, EMPTY_DRAFT])}
          >
            <Trans>Add a crisis resource</Trans>
          </Button>
          <label className={styles.checkbox}>
            <input
              type="checkbox"
              checked={resourcesFirst}
              onChange={(event) => setResourcesFirst(event.target.checked)}
            />
            <Trans>List our own services before the national lines</Trans>
          </label>
          <figure className={styles.preview} aria-labelledby={previewHeadingId}>
            <figcaption id={previewHeadingId} className={styles.previewCaption}>
              <Trans>Preview: what a student whose answers are urgent sees</Trans>
            </figcaption>
            <CrisisSupport help={preview} headingId={`${previewHeadingId}-panel`}>
              <Button variant="secondary" disabled>
                <Trans>Back to Homepage</Trans>
              </Button>
            </CrisisSupport>
          </figure>
        </fieldset>
        {problem && (
          <p id={problemId} className={styles.problem} role="alert">
            {problem.message}
          </p>
        )}
        <Button type="submit" className={styles.submit} busy={save.isPending}>
          <Trans>Save settings</Trans>
        </Button>
      </form>
    </Card>
  );
}

import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useState } from 'react';
import { NavLink } from 'react-router';
import { WEEKDAYS } from '../../../common/schemas/campaigns';
import type { TemplateSummary } from '../../../common/schemas/templates';
import { errorMessage } from '../../api';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { MessageModal, type ModalMessage } from '../../ui/Modal';
import { Card, Lead, Page } from '../../ui/Page';
import { AdminOnly } from '../admin/AdminOnly';
import { fetchRoster } from '../roster/rosterApi';
import { fetchTemplates } from '../templates/templatesApi';
import { createCampaign } from './campaignsApi';
import { weekdayLabel, weekdayName } from './clock';
import styles from './Schedule.module.css';

const TITLE = msg`Schedule Survey`;

const DAYS = WEEKDAYS;

type DemoProvider = 'Gmail' | 'Outlook';
/** The roster's groups are real (design section 10): a campaign is created for them. */
type Provider = DemoProvider | 'Roster';

/** Spec section 2: the demo's fixed group lists; nothing is fetched from a mail provider. */
const EMAIL_GROUPS: Record<DemoProvider, readonly string[]> = {
  Gmail: ['Students', 'Faculty', 'Staff', 'All Users'],
  Outlook: ['Department 1', 'Department 2', 'Administrators'],
};

/** The demo groups as the page's language names them (their values stay the spec's). */
const EMAIL_GROUP_LABELS: Record<string, MessageDescriptor> = {
  Students: msg`Students`,
  Faculty: msg`Faculty`,
  Staff: msg`Staff`,
  'All Users': msg`All Users`,
  'Department 1': msg`Department 1`,
  'Department 2': msg`Department 2`,
  Administrators: msg`Administrators`,
};

/** Spec section 5: hour and minute inputs keep at most two characters. */
const twoCharacters = (value: string) => value.slice(0, 2);

export function ScheduleScreen() {
  const { t, i18n } = useLingui();
  return (
    <AdminOnly ability="schedule" title={i18n._(TITLE)} loadingText={t`Loading...`}>
      <ScheduleForm />
    </AdminOnly>
  );
}

function ScheduleForm() {
  const { t, i18n } = useLingui();
  const [day, setDay] = useState('');
  const [hour, setHour] = useState('');
  const [minute, setMinute] = useState('');
  const [period, setPeriod] = useState<'AM' | 'PM'>('AM');
  const [recurring, setRecurring] = useState(false);
  const [provider, setProvider] = useState<Provider | null>(null);
  const [group, setGroup] = useState('');
  const [message, setMessage] = useState<ModalMessage | null>(null);
  const [roster, setRoster] = useState<{ groups: string[]; templates: TemplateSummary[] } | null>(null);
  const [rosterStatus, setRosterStatus] = useState<string | null>(null);
  const [templateId, setTemplateId] = useState('');
  const [sendNow, setSendNow] = useState(false);
  const [anonymous, setAnonymous] = useState(false);
  const [reminderDays, setReminderDays] = useState('2');
  const [busy, setBusy] = useState(false);
  // Roster campaigns: several groups at once, everyone, or those the roster gives no group.
  const [chosenGroups, setChosenGroups] = useState<string[]>([]);
  const [allStudents, setAllStudents] = useState(false);
  const [noGroup, setNoGroup] = useState(false);
  const rosterAudienceChosen = allStudents || noGroup || chosenGroups.length > 0;
  const toggleGroup = (name: string, on: boolean) =>
    setChosenGroups((current) => (on ? [...current, name] : current.filter((other) => other !== name)));
  const groups = provider === 'Roster' ? (roster?.groups ?? []) : provider ? EMAIL_GROUPS[provider] : [];
  /** Before or after noon, as the page's language writes it beside a time. */
  const periodLabel = (value: 'AM' | 'PM') => (value === 'AM' ? t`AM` : t`PM`);
  /** A roster group keeps the roster's name; a demo group is named in the page's language. */
  const groupLabel = (name: string) => {
    const label = provider === 'Roster' ? undefined : EMAIL_GROUP_LABELS[name];
    return label ? i18n._(label) : name;
  };

  function connect(next: DemoProvider) {
    setProvider(next);
    setGroup('');
  }

  /** Loads the roster's groups and the templates: only now, so the demo makes no call. */
  async function loadRoster() {
    setProvider('Roster');
    setGroup('');
    setRosterStatus(t`Loading the roster groups...`);
    try {
      const [page, templates] = await Promise.all([
        fetchRoster({ q: '', group: '', offset: 0, limit: 1 }),
        fetchTemplates(),
      ]);
      setRoster({ groups: page.groups, templates });
      setTemplateId(String((templates.find((template) => template.used) ?? templates[0])?.id ?? ''));
      const count = page.groups.length;
      setRosterStatus(
        count === 0
          ? t`The roster has no groups yet. Import the registrar’s file on the Roster page first.`
          : count === 1
            ? t`Roster: ${count} group loaded.`
            : t`Roster: ${count} groups loaded.`,
      );
    } catch (error) {
      setRoster(null);
      setRosterStatus(errorMessage(error, t`The roster could not be loaded. Please try again.`));
    }
  }

  /** A roster group: a real campaign is created, at once with "Send now". */
  async function createRosterCampaign() {
    if (busy) return;
    setBusy(true);
    try {
      const answer = await createCampaign({
        template_id: Number(templateId),
        groups: allStudents ? [] : chosenGroups,
        all_students: allStudents,
        no_group: noGroup && !allStudents,
        day: day as (typeof DAYS)[number],
        hour: Number(hour),
        minute: Number(minute),
        ampm: period,
        recurring,
        send_now: sendNow,
        anonymous,
        reminder_after_days: Number(reminderDays),
      });
      setMessage({ title: t`Survey scheduled`, text: answer.message, tone: 'success' });
    } catch (error) {
      setMessage({
        title: t`Survey not scheduled`,
        text: errorMessage(error, t`The campaign could not be created. Please try again.`),
        tone: 'error',
      });
    } finally {
      setBusy(false);
    }
  }

  /** A demo group: it confirms what would be scheduled and makes no call (spec section 2). */
  function schedule(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (provider === 'Roster') {
      void createRosterCampaign();
      return;
    }
    const time = `${Number(hour)}:${minute.padStart(2, '0')} ${periodLabel(period)}`;
    const weekday = (DAYS as readonly string[]).includes(day)
      ? weekdayName(day as (typeof DAYS)[number], i18n.locale)
      : day;
    const chosen = groupLabel(group);
    let text: string;
    if (group && recurring)
      text = t`Survey scheduled successfully every ${weekday} at ${time} for ${chosen} (${provider}). This is a demo: nothing was saved and no email will be sent.`;
    else if (group)
      text = t`Survey scheduled successfully on ${weekday} at ${time} for ${chosen} (${provider}). This is a demo: nothing was saved and no email will be sent.`;
    else if (recurring)
      text = t`Survey scheduled successfully every ${weekday} at ${time}. This is a demo: nothing was saved and no email will be sent.`;
    else
      text = t`Survey scheduled successfully on ${weekday} at ${time}. This is a demo: nothing was saved and no email will be sent.`;
    setMessage({ title: t`Survey scheduled`, text, tone: 'success' });
  }

  return (
    <Page>
      <div className={styles.layout}>
        <aside className={styles.sidebar}>
          <nav aria-label={t`Schedule`}>
            <ul className={styles.sideLinks}>
              <li>
                <NavLink to="/dashboard/" className={styles.sideLink}>
                  <svg className={styles.sideIcon} viewBox="0 0 20 20" aria-hidden="true" focusable="false">
                    <path d="M3 17h14v-1.5H3zM4 14h3V8H4zm4.5 0h3V4h-3zm4.5 0h3v-4h-3z" fill="currentColor" />
                  </svg>
                  <Trans>Analytics</Trans>
                </NavLink>
              </li>
              <li>
                <NavLink to="/" className={styles.sideLink}>
                  <svg className={styles.sideIcon} viewBox="0 0 20 20" aria-hidden="true" focusable="false">
                    <path d="M8.5 4.5 3 10l5.5 5.5 1-1L5.8 10.7H17V9.3H5.8l3.7-3.8z" fill="currentColor" />
                  </svg>
                  <Trans>Back to Homepage</Trans>
                </NavLink>
              </li>
            </ul>
          </nav>
        </aside>

        <Card className={styles.card}>
          <h1>{i18n._(TITLE)}</h1>
          <Lead>
            <Trans>Choose when the wellness check-in goes out and who receives it.</Trans>
          </Lead>
          {provider === 'Roster' ? (
            <p className={styles.rosterNote}>
              <Trans>
                Each student of the roster group gets a personal link by email. Times are in your
                institution&apos;s time zone.
              </Trans>
            </p>
          ) : (
            <p className={styles.demoNote}>
              <Trans>
                <strong>Demo only.</strong> Scheduling with Gmail or Outlook groups is a preview: nothing is
                saved and no emails are sent. Choose &ldquo;Use the roster&rdquo; to send real invitations.
              </Trans>
            </p>
          )}

          <form className={styles.form} onSubmit={schedule}>
            <SelectField
              label={t`Day`}
              name="day"
              required
              value={day}
              onChange={(event) => setDay(event.currentTarget.value)}
            >
              <option value="">{t`Select a day`}</option>
              {DAYS.map((name) => (
                <option key={name} value={name}>
                  {weekdayLabel(name, i18n.locale)}
                </option>
              ))}
            </SelectField>

            <fieldset className={styles.timeFieldset}>
              <legend>
                <Trans>Time</Trans>
              </legend>
              <div className={styles.timeRow}>
                <TextField
                  label={t`Hour`}
                  name="hour"
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={12}
                  step={1}
                  required
                  value={hour}
                  onChange={(event) => setHour(twoCharacters(event.currentTarget.value))}
                />
                <TextField
                  label={t`Minute`}
                  name="minute"
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={59}
                  step={1}
                  required
                  value={minute}
                  onChange={(event) => setMinute(twoCharacters(event.currentTarget.value))}
                />
                <SelectField
                  label={t`AM/PM`}
                  name="period"
                  value={period}
                  onChange={(event) => setPeriod(event.currentTarget.value === 'PM' ? 'PM' : 'AM')}
                >
                  <option value="AM">{periodLabel('AM')}</option>
                  <option value="PM">{periodLabel('PM')}</option>
                </SelectField>
              </div>
            </fieldset>

            <label className={styles.checkbox}>
              <input
                type="checkbox"
                name="recurring"
                checked={recurring}
                onChange={(event) => setRecurring(event.currentTarget.checked)}
              />
              <Trans>Make this a recurring survey</Trans>
            </label>

            <fieldset className={styles.emailFieldset}>
              <legend>
                <Trans>Email recipients</Trans>
              </legend>
              <div className={styles.providers}>
                <Button
                  variant={provider === 'Gmail' ? 'primary' : 'secondary'}
                  aria-pressed={provider === 'Gmail'}
                  onClick={() => connect('Gmail')}
                >
                  <Trans>Connect to Gmail</Trans>
                </Button>
                <Button
                  variant={provider === 'Outlook' ? 'primary' : 'secondary'}
                  aria-pressed={provider === 'Outlook'}
                  onClick={() => connect('Outlook')}
                >
                  <Trans>Connect to Outlook</Trans>
                </Button>
                <Button
                  variant={provider === 'Roster' ? 'primary' : 'secondary'}
                  aria-pressed={provider === 'Roster'}
                  onClick={() => void loadRoster()}
                >
                  <Trans>Use the roster</Trans>
                </Button>
              </div>
              <p className={styles.connection} role="status">
                {provider === 'Roster'
                  ? rosterStatus
                  : provider
                    ? t`Connected to ${provider} (demo): ${EMAIL_GROUPS[provider].length} groups loaded.`
                    : t`Connect an email account to choose a group.`}
              </p>
              {provider === 'Roster' && roster ? (
                <fieldset className={styles.timeFieldset}>
                  <legend>
                    <Trans>Roster groups</Trans>
                  </legend>
                  <label className={styles.checkbox}>
                    <input
                      type="checkbox"
                      name="all_students"
                      checked={allStudents}
                      onChange={(event) => setAllStudents(event.currentTarget.checked)}
                    />
                    <Trans>All students</Trans>
                  </label>
                  {roster.groups.map((name) => (
                    <label key={name} className={styles.checkbox}>
                      <input
                        type="checkbox"
                        name="groups"
                        value={name}
                        disabled={allStudents}
                        checked={allStudents || chosenGroups.includes(name)}
                        onChange={(event) => toggleGroup(name, event.currentTarget.checked)}
                      />
                      {name}
                    </label>
                  ))}
                  <label className={styles.checkbox}>
                    <input
                      type="checkbox"
                      name="no_group"
                      disabled={allStudents}
                      checked={allStudents || noGroup}
                      onChange={(event) => setNoGroup(event.currentTarget.checked)}
                    />
                    <Trans>Students with no group</Trans>
                  </label>
                </fieldset>
              ) : (
                <SelectField
                  label={t`Email Group`}
                  name="email_group"
                  value={group}
                  disabled={!provider}
                  onChange={(event) => setGroup(event.currentTarget.value)}
                >
                  <option value="">{provider ? t`Select a group` : t`No account connected`}</option>
                  {groups.map((name) => (
                    <option key={name} value={name}>
                      {groupLabel(name)}
                    </option>
                  ))}
                </SelectField>
              )}
            </fieldset>

            {provider === 'Roster' && roster && (
              <fieldset className={styles.emailFieldset}>
                <legend>
                  <Trans>Campaign</Trans>
                </legend>
                <div className={styles.campaignFields}>
                  <SelectField
                    label={t`Survey template`}
                    name="template_id"
                    required
                    value={templateId}
                    onChange={(event) => setTemplateId(event.currentTarget.value)}
                  >
                    {roster.templates.map((template) => (
                      <option key={template.id} value={template.id}>
                        {template.used
                          ? t`Template ${template.id} (currently used)`
                          : t`Template ${template.id}`}
                      </option>
                    ))}
                  </SelectField>
                  <TextField
                    label={t`Remind those who have not answered after (days)`}
                    hint={t`At most 2 reminders per round; 0 sends none.`}
                    name="reminder_after_days"
                    type="number"
                    inputMode="numeric"
                    min={0}
                    max={14}
                    required
                    value={reminderDays}
                    onChange={(event) => setReminderDays(twoCharacters(event.currentTarget.value))}
                  />
                </div>
                <label className={styles.checkbox}>
                  <input
                    type="checkbox"
                    name="send_now"
                    checked={sendNow}
                    onChange={(event) => setSendNow(event.currentTarget.checked)}
                  />
                  <Trans>Send now</Trans>
                </label>
                <label className={styles.checkbox}>
                  <input
                    type="checkbox"
                    name="anonymous"
                    checked={anonymous}
                    onChange={(event) => setAnonymous(event.currentTarget.checked)}
                  />
                  <Trans>
                    Anonymous: keep no name, email or network address with the answers, and show them only as
                    totals over groups of students. A student may still ask a counsellor to contact them.
                  </Trans>
                </label>
              </fieldset>
            )}

            <div>
              {provider === 'Roster' ? (
                <Button type="submit" busy={busy} disabled={!rosterAudienceChosen || !templateId}>
                  {sendNow ? t`Send Survey Now` : t`Schedule Survey`}
                </Button>
              ) : (
                <Button type="submit">
                  <Trans>Schedule Survey (Demo Only)</Trans>
                </Button>
              )}
            </div>
          </form>
        </Card>
      </div>
      <MessageModal message={message} onClose={() => setMessage(null)} />
    </Page>
  );
}

import { type FormEvent, useState } from 'react';
import { NavLink } from 'react-router';
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
import styles from './Schedule.module.css';

const TITLE = 'Schedule Survey';

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

type DemoProvider = 'Gmail' | 'Outlook';
/** The roster's groups are real (design section 10): a campaign is created for them. */
type Provider = DemoProvider | 'Roster';

/** Spec section 2: the demo's fixed group lists; nothing is fetched from a mail provider. */
const EMAIL_GROUPS: Record<DemoProvider, readonly string[]> = {
  Gmail: ['Students', 'Faculty', 'Staff', 'All Users'],
  Outlook: ['Department 1', 'Department 2', 'Administrators'],
};

/** Spec section 5: hour and minute inputs keep at most two characters. */
const twoCharacters = (value: string) => value.slice(0, 2);

export function ScheduleScreen() {
  return (
    <AdminOnly ability="schedule" title={TITLE} loadingText="Loading...">
      <ScheduleForm />
    </AdminOnly>
  );
}

function ScheduleForm() {
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

  function connect(next: DemoProvider) {
    setProvider(next);
    setGroup('');
  }

  /** Loads the roster's groups and the templates: only now, so the demo makes no call. */
  async function loadRoster() {
    setProvider('Roster');
    setGroup('');
    setRosterStatus('Loading the roster groups...');
    try {
      const [page, templates] = await Promise.all([
        fetchRoster({ q: '', group: '', offset: 0, limit: 1 }),
        fetchTemplates(),
      ]);
      setRoster({ groups: page.groups, templates });
      setTemplateId(String((templates.find((template) => template.used) ?? templates[0])?.id ?? ''));
      setRosterStatus(
        page.groups.length === 0
          ? 'The roster has no groups yet. Import the registrar\u2019s file on the Roster page first.'
          : `Roster: ${page.groups.length} group${page.groups.length === 1 ? '' : 's'} loaded.`,
      );
    } catch (error) {
      setRoster(null);
      setRosterStatus(errorMessage(error, 'The roster could not be loaded. Please try again.'));
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
      setMessage({ title: 'Survey scheduled', text: answer.message, tone: 'success' });
    } catch (error) {
      setMessage({
        title: 'Survey not scheduled',
        text: errorMessage(error, 'The campaign could not be created. Please try again.'),
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
    const time = `${Number(hour)}:${minute.padStart(2, '0')} ${period}`;
    const when = recurring ? `every ${day} at ${time}` : `on ${day} at ${time}`;
    const audience = group ? ` for ${group} (${provider})` : '';
    setMessage({
      title: 'Survey scheduled',
      text: `Survey scheduled successfully ${when}${audience}. This is a demo: nothing was saved and no email will be sent.`,
      tone: 'success',
    });
  }

  return (
    <Page>
      <div className={styles.layout}>
        <aside className={styles.sidebar}>
          <nav aria-label="Schedule">
            <ul className={styles.sideLinks}>
              <li>
                <NavLink to="/dashboard/" className={styles.sideLink}>
                  <svg className={styles.sideIcon} viewBox="0 0 20 20" aria-hidden="true" focusable="false">
                    <path d="M3 17h14v-1.5H3zM4 14h3V8H4zm4.5 0h3V4h-3zm4.5 0h3v-4h-3z" fill="currentColor" />
                  </svg>
                  Analytics
                </NavLink>
              </li>
              <li>
                <NavLink to="/" className={styles.sideLink}>
                  <svg className={styles.sideIcon} viewBox="0 0 20 20" aria-hidden="true" focusable="false">
                    <path d="M8.5 4.5 3 10l5.5 5.5 1-1L5.8 10.7H17V9.3H5.8l3.7-3.8z" fill="currentColor" />
                  </svg>
                  Back to Homepage
                </NavLink>
              </li>
            </ul>
          </nav>
        </aside>

        <Card className={styles.card}>
          <h1>{TITLE}</h1>
          <Lead>Choose when the wellness check-in goes out and who receives it.</Lead>
          {provider === 'Roster' ? (
            <p className={styles.rosterNote}>
              Each student of the roster group gets a personal link by email. Times are in your
              institution&apos;s time zone.
            </p>
          ) : (
            <p className={styles.demoNote}>
              <strong>Demo only.</strong> Scheduling with Gmail or Outlook groups is a preview: nothing is
              saved and no emails are sent. Choose &ldquo;Use the roster&rdquo; to send real invitations.
            </p>
          )}

          <form className={styles.form} onSubmit={schedule}>
            <SelectField
              label="Day"
              name="day"
              required
              value={day}
              onChange={(event) => setDay(event.currentTarget.value)}
            >
              <option value="">Select a day</option>
              {DAYS.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </SelectField>

            <fieldset className={styles.timeFieldset}>
              <legend>Time</legend>
              <div className={styles.timeRow}>
                <TextField
                  label="Hour"
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
                  label="Minute"
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
                  label="AM/PM"
                  name="period"
                  value={period}
                  onChange={(event) => setPeriod(event.currentTarget.value === 'PM' ? 'PM' : 'AM')}
                >
                  <option value="AM">AM</option>
                  <option value="PM">PM</option>
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
              Make this a recurring survey
            </label>

            <fieldset className={styles.emailFieldset}>
              <legend>Email recipients</legend>
              <div className={styles.providers}>
                <Button
                  variant={provider === 'Gmail' ? 'primary' : 'secondary'}
                  aria-pressed={provider === 'Gmail'}
                  onClick={() => connect('Gmail')}
                >
                  Connect to Gmail
                </Button>
                <Button
                  variant={provider === 'Outlook' ? 'primary' : 'secondary'}
                  aria-pressed={provider === 'Outlook'}
                  onClick={() => connect('Outlook')}
                >
                  Connect to Outlook
                </Button>
                <Button
                  variant={provider === 'Roster' ? 'primary' : 'secondary'}
                  aria-pressed={provider === 'Roster'}
                  onClick={() => void loadRoster()}
                >
                  Use the roster
                </Button>
              </div>
              <p className={styles.connection} role="status">
                {provider === 'Roster'
                  ? rosterStatus
                  : provider
                    ? `Connected to ${provider} (demo): ${EMAIL_GROUPS[provider].length} groups loaded.`
                    : 'Connect an email account to choose a group.'}
              </p>
              {provider === 'Roster' && roster ? (
                <fieldset className={styles.timeFieldset}>
                  <legend>Roster groups</legend>
                  <label className={styles.checkbox}>
                    <input
                      type="checkbox"
                      name="all_students"
                      checked={allStudents}
                      onChange={(event) => setAllStudents(event.currentTarget.checked)}
                    />
                    All students
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
                    Students with no group
                  </label>
                </fieldset>
              ) : (
                <SelectField
                  label="Email Group"
                  name="email_group"
                  value={group}
                  disabled={!provider}
                  onChange={(event) => setGroup(event.currentTarget.value)}
                >
                  <option value="">{provider ? 'Select a group' : 'No account connected'}</option>
                  {groups.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </SelectField>
              )}
            </fieldset>

            {provider === 'Roster' && roster && (
              <fieldset className={styles.emailFieldset}>
                <legend>Campaign</legend>
                <div className={styles.campaignFields}>
                  <SelectField
                    label="Survey template"
                    name="template_id"
                    required
                    value={templateId}
                    onChange={(event) => setTemplateId(event.currentTarget.value)}
                  >
                    {roster.templates.map((template) => (
                      <option key={template.id} value={template.id}>
                        Template {template.id}
                        {template.used ? ' (currently used)' : ''}
                      </option>
                    ))}
                  </SelectField>
                  <TextField
                    label="Remind those who have not answered after (days)"
                    hint="At most 2 reminders per round; 0 sends none."
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
                  Send now
                </label>
                <label className={styles.checkbox}>
                  <input
                    type="checkbox"
                    name="anonymous"
                    checked={anonymous}
                    onChange={(event) => setAnonymous(event.currentTarget.checked)}
                  />
                  Anonymous: keep no name, email or network address with the answers, and show them only as
                  totals over groups of students. A student may still ask a counsellor to contact them.
                </label>
              </fieldset>
            )}

            <div>
              {provider === 'Roster' ? (
                <Button type="submit" busy={busy} disabled={!rosterAudienceChosen || !templateId}>
                  {sendNow ? 'Send Survey Now' : 'Schedule Survey'}
                </Button>
              ) : (
                <Button type="submit">Schedule Survey (Demo Only)</Button>
              )}
            </div>
          </form>
        </Card>
      </div>
      <MessageModal message={message} onClose={() => setMessage(null)} />
    </Page>
  );
}

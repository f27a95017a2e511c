import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { STAFF_ROLES, type StaffRoleName } from '../../../common/roles';
import type { PendingInvitation, TeamMember } from '../../../common/schemas/staff';
import { EMAIL_MAX_LENGTH } from '../../../common/schemas/values';
import { errorMessage, hasErrorCode } from '../../api';
import { Button } from '../../ui/Button';
import { type Confirmation, ConfirmDialog } from '../../ui/ConfirmDialog';
import { SelectField, TextField } from '../../ui/Field';
import fieldStyles from '../../ui/Field.module.css';
import { Flash, useFlash } from '../../ui/Flash';
import { LoadError } from '../../ui/LoadError';
import { Lead, Page } from '../../ui/Page';
import { AdminOnly, LoadingStatus, useLoginRedirect } from '../admin/AdminOnly';
import layout from '../admin/AdminPage.module.css';
import { useCurrentUser } from '../auth/useCurrentUser';
import { useStepUp } from '../security/StepUp';
import { useZonedFormat } from '../time/ZonedTime';
import { ROLE_LABEL, ROLE_SEES_TEXT } from './roleLabels';
import styles from './Team.module.css';
import {
  allowSsoLink,
  changeRole,
  fetchTeam,
  inviteMember,
  removeMember,
  resendInvitation,
  resetSecondFactor,
  revokeInvitation,
  startOwnSsoLink,
  TEAM_QUERY_KEY,
} from './teamApi';

const TITLE = msg`Team`;

/** What each role may open, said where the admin chooses one. */
const ROLE_HINT = msg`Admins: everything. Counsellors: the dashboard with names, the CSV export, cases and student history. Viewers: the dashboard numbers only, never a name.`;

export function TeamScreen() {
  const { t, i18n } = useLingui();
  return (
    <AdminOnly ability="team" title={i18n._(TITLE)} loadingText={t`Loading team...`}>
      <Team />
    </AdminOnly>
  );
}

function Team() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const { flash, showFlash } = useFlash();
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const team = useQuery({ queryKey: TEAM_QUERY_KEY, queryFn: fetchTeam });
  const me = useCurrentUser().data;
  // Linking a sign-in is a change to how the account signs in: it may ask for the second factor again.
  const stepUp = useStepUp();
  useLoginRedirect(hasErrorCode(team.error, 'UNAUTHENTICATED'));

  /** Runs a change, says how it went, and reloads the team either way (someone may have acted meanwhile). */
  const change = useMutation({
    mutationFn: (run: () => Promise<{ message: string }>) => run(),
    onSuccess: (result) => showFlash(result.message),
    onError: (error) => showFlash(errorMessage(error, t`The change could not be made.`), 'error'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: TEAM_QUERY_KEY }),
  });

  return (
    <Page>
      <Flash flash={flash} floating />
      <div className={layout.heading}>
        <div>
          <h1>{i18n._(TITLE)}</h1>
          <Lead>
            <Trans>Invite colleagues, choose what each may open, and remove access.</Trans>
          </Lead>
        </div>
      </div>
      <InviteForm
        onInvited={(message) => showFlash(message)}
        onFailed={(message) => showFlash(message, 'error')}
      />
      {team.isPending ? (
        <LoadingStatus>
          <Trans>Loading team...</Trans>
        </LoadingStatus>
      ) : team.isError ? (
        <LoadError message={t`Failed to load the team.`} onRetry={() => void team.refetch()} />
      ) : (
        <>
          <Members
            members={team.data.members}
            singleSignOn={team.data.single_sign_on}
            myEmail={me?.email ?? null}
            onRole={(member, role) => {
              const name = member.name;
              const question = {
                admin: t`Make ${name} an Admin?`,
                counsellor: t`Make ${name} a Counsellor?`,
                viewer: t`Make ${name} a Viewer?`,
              }[role];
              setConfirmation({
                title: t`Change role`,
                text: `${question} ${i18n._(ROLE_SEES_TEXT[role])}`,
                confirmLabel: {
                  admin: t`Make Admin`,
                  counsellor: t`Make Counsellor`,
                  viewer: t`Make Viewer`,
                }[role],
                onConfirm: () => change.mutate(() => changeRole(member.id, role)),
              });
            }}
            onAllowSsoLink={(member) => change.mutate(() => allowSsoLink(member.id))}
            onLinkOwnSso={() =>
              void stepUp.confirmed(startOwnSsoLink).then(
                (answer) => window.location.assign(answer.authorization_url),
                (error: unknown) =>
                  showFlash(errorMessage(error, t`Single sign-on could not start.`), 'error'),
              )
            }
            onResetSecondFactor={(member) =>
              setConfirmation({
                title: t`Reset second factor`,
                text: t`Reset ${member.name}'s second factor? They will set one up again at their next sign-in.`,
                confirmLabel: t`Reset second factor`,
                confirmVariant: 'danger',
                onConfirm: () => change.mutate(() => resetSecondFactor(member.id)),
              })
            }
            onRemove={(member) =>
              setConfirmation({
                title: t`Remove access`,
                text: t`Remove ${member.name}'s access? They are signed out at once and can no longer sign in.`,
                confirmLabel: t`Remove access`,
                confirmVariant: 'danger',
                onConfirm: () => change.mutate(() => removeMember(member.id)),
              })
            }
          />
          <Invitations
            invitations={team.data.invitations}
            onResend={(invitation) => change.mutate(() => resendInvitation(invitation.id))}
            onRevoke={(invitation) =>
              setConfirmation({
                title: t`Withdraw invitation`,
                text: t`Withdraw the invitation to ${invitation.email}? Its link stops working.`,
                confirmLabel: t`Withdraw`,
                confirmVariant: 'danger',
                onConfirm: () => change.mutate(() => revokeInvitation(invitation.id)),
              })
            }
          />
        </>
      )}
      <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} />
      {stepUp.dialog}
    </Page>
  );
}

function RoleOptions() {
  const { i18n } = useLingui();
  return (
    <>
      {STAFF_ROLES.map((role) => (
        <option key={role} value={role}>
          {i18n._(ROLE_LABEL[role])}
        </option>
      ))}
    </>
  );
}

function InviteForm({
  onInvited,
  onFailed,
}: {
  onInvited: (message: string) => void;
  onFailed: (message: string) => void;
}) {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const headingId = useId();
  const [busy, setBusy] = useState(false);
  const [role, setRole] = useState<StaffRoleName>('counsellor');

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setBusy(true);
    try {
      const { message } = await inviteMember({
        email: String(data.get('email') ?? ''),
        name: String(data.get('name') ?? ''),
        role,
      });
      form.reset();
      setRole('counsellor');
      onInvited(message);
    } catch (error) {
      onFailed(errorMessage(error, t`The invitation could not be sent.`));
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: TEAM_QUERY_KEY });
    }
  }

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.sectionTitle}>
        <Trans>Invite someone</Trans>
      </h2>
      <form className={styles.inviteForm} onSubmit={submit}>
        <TextField label={t`Name`} name="name" required maxLength={200} autoComplete="off" />
        <TextField
          label={t`Email`}
          name="email"
          type="email"
          required
          maxLength={EMAIL_MAX_LENGTH}
          autoComplete="off"
        />
        <SelectField
          label={t`Role`}
          name="role"
          value={role}
          onChange={(event) => setRole(event.currentTarget.value as StaffRoleName)}
        >
          <RoleOptions />
        </SelectField>
        <Button type="submit" busy={busy}>
          <Trans>Send invitation</Trans>
        </Button>
      </form>
      <p className={styles.roleHint}>{i18n._(ROLE_HINT)}</p>
    </section>
  );
}

function Members({
  members,
  myEmail,
  onRole,
  onRemove,
  onResetSecondFactor,
  onAllowSsoLink,
  onLinkOwnSso,
  singleSignOn,
}: {
  members: readonly TeamMember[];
  /** The institution has single sign-on: members may link it. */
  singleSignOn: boolean;
  myEmail: string | null;
  onRole: (member: TeamMember, role: StaffRoleName) => void;
  onRemove: (member: TeamMember) => void;
  /** A colleague lost their phone: they set up a second factor again at their next sign-in. */
  onResetSecondFactor: (member: TeamMember) => void;
  onAllowSsoLink: (member: TeamMember) => void;
  onLinkOwnSso: () => void;
}) {
  const { t } = useLingui();
  const formatDate = useZonedFormat();
  const headingId = useId();
  const count = members.length;
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.sectionTitle}>
        <Trans>Members ({count})</Trans>
      </h2>
      <ul className={styles.list}>
        {members.map((member) => (
          <li key={member.id} className={styles.row}>
            <div className={styles.who}>
              <span className={styles.name}>
                {member.email === myEmail ? t`${member.name} (you)` : member.name}
              </span>
              <span className={styles.email}>{member.email}</span>
              <span className={styles.meta}>
                <Trans>Joined {formatDate(member.joined_at)}</Trans>
              </span>
              <SsoStatus member={member} />
            </div>
            <div className={styles.controls}>
              <select
                className={`${fieldStyles.control} ${styles.roleSelect}`}
                aria-label={t`Role of ${member.name}`}
                value={member.role}
                onChange={(event) => onRole(member, event.currentTarget.value as StaffRoleName)}
              >
                <RoleOptions />
              </select>
              {!singleSignOn || member.sso_linked ? null : member.email === myEmail ? (
                <Button variant="secondary" size="small" onClick={onLinkOwnSso}>
                  <Trans>Link single sign-on</Trans>
                </Button>
              ) : (
                <Button variant="secondary" size="small" onClick={() => onAllowSsoLink(member)}>
                  <Trans>
                    Allow single sign-on link<span className="visually-hidden"> for {member.name}</span>
                  </Trans>
                </Button>
              )}
              {member.email === myEmail ? null : (
                <Button variant="secondary" size="small" onClick={() => onResetSecondFactor(member)}>
                  <Trans>
                    Reset second factor<span className="visually-hidden"> of {member.name}</span>
                  </Trans>
                </Button>
              )}
              <Button variant="danger" size="small" onClick={() => onRemove(member)}>
                <Trans>
                  Remove access<span className="visually-hidden"> of {member.name}</span>
                </Trans>
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Invitations({
  invitations,
  onResend,
  onRevoke,
}: {
  invitations: readonly PendingInvitation[];
  onResend: (invitation: PendingInvitation) => void;
  onRevoke: (invitation: PendingInvitation) => void;
}) {
  const { t, i18n } = useLingui();
  const headingId = useId();
  const formatDate = useZonedFormat();
  const count = invitations.length;
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.sectionTitle}>
        <Trans>Invitations waiting ({count})</Trans>
      </h2>
      {invitations.length === 0 ? (
        <p className={styles.empty}>
          <Trans>No invitation is waiting for an answer.</Trans>
        </p>
      ) : (
        <ul className={styles.list}>
          {invitations.map((invitation) => (
            <li key={invitation.id} className={styles.row}>
              <div className={styles.who}>
                <span className={styles.name}>
                  {invitation.name} · {i18n._(ROLE_LABEL[invitation.role])}
                </span>
                <span className={styles.email}>{invitation.email}</span>
                <span className={invitation.expired ? styles.expired : styles.meta}>
                  {invitation.expired
                    ? t`Expired ${formatDate(invitation.expires_at)}`
                    : t`Sent ${formatDate(invitation.invited_at)}, link works until ${formatDate(invitation.expires_at)}`}
                </span>
              </div>
              <div className={styles.controls}>
                <Button variant="secondary" size="small" onClick={() => onResend(invitation)}>
                  <Trans>
                    Re-send<span className="visually-hidden"> to {invitation.email}</span>
                  </Trans>
                </Button>
                <Button variant="ghost" size="small" onClick={() => onRevoke(invitation)}>
                  <Trans>
                    Withdraw<span className="visually-hidden"> the invitation to {invitation.email}</span>
                  </Trans>
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** How the member stands with single sign-on, when there is anything to say. */
function SsoStatus({ member }: { member: TeamMember }) {
  const formatTime = useZonedFormat();
  if (member.sso_linked)
    return (
      <span className={styles.meta}>
        <Trans>Signs in with single sign-on</Trans>
      </span>
    );
  if (member.sso_link_allowed_until) {
    const until = formatTime(member.sso_link_allowed_until);
    return (
      <span className={styles.meta}>
        <Trans>Their next single sign-on links it, until {until}</Trans>
      </span>
    );
  }
  return null;
}

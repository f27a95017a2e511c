import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { ROLE_LABELS, ROLE_SEES, STAFF_ROLES, type StaffRoleName } from '../../../common/roles';
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

const TITLE = 'Team';

/** What each role may open, said where the admin chooses one. */
const ROLE_HINT =
  'Admins: everything. Counsellors: the dashboard with names, the CSV export, cases and student history. Viewers: the dashboard numbers only, never a name.';

export function TeamScreen() {
  return (
    <AdminOnly ability="team" title={TITLE} loadingText="Loading team...">
      <Team />
    </AdminOnly>
  );
}

function Team() {
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
    onError: (error) => showFlash(errorMessage(error, 'The change could not be made.'), 'error'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: TEAM_QUERY_KEY }),
  });

  return (
    <Page>
      <Flash flash={flash} floating />
      <div className={layout.heading}>
        <div>
          <h1>{TITLE}</h1>
          <Lead>Invite colleagues, choose what each may open, and remove access.</Lead>
        </div>
      </div>
      <InviteForm
        onInvited={(message) => showFlash(message)}
        onFailed={(message) => showFlash(message, 'error')}
      />
      {team.isPending ? (
        <LoadingStatus>Loading team...</LoadingStatus>
      ) : team.isError ? (
        <LoadError message="Failed to load the team." onRetry={() => void team.refetch()} />
      ) : (
        <>
          <Members
            members={team.data.members}
            singleSignOn={team.data.single_sign_on}
            myEmail={me?.email ?? null}
            onRole={(member, role) =>
              setConfirmation({
                title: 'Change role',
                text: `Make ${member.name} ${role === 'admin' ? 'an' : 'a'} ${ROLE_LABELS[role]}? ${ROLE_SEES[role]}`,
                confirmLabel: `Make ${ROLE_LABELS[role]}`,
                onConfirm: () => change.mutate(() => changeRole(member.id, role)),
              })
            }
            onAllowSsoLink={(member) => change.mutate(() => allowSsoLink(member.id))}
            onLinkOwnSso={() =>
              void stepUp.confirmed(startOwnSsoLink).then(
                (answer) => window.location.assign(answer.authorization_url),
                (error: unknown) =>
                  showFlash(errorMessage(error, 'Single sign-on could not start.'), 'error'),
              )
            }
            onResetSecondFactor={(member) =>
              setConfirmation({
                title: 'Reset second factor',
                text: `Reset ${member.name}'s second factor? They will set one up again at their next sign-in.`,
                confirmLabel: 'Reset second factor',
                confirmVariant: 'danger',
                onConfirm: () => change.mutate(() => resetSecondFactor(member.id)),
              })
            }
            onRemove={(member) =>
              setConfirmation({
                title: 'Remove access',
                text: `Remove ${member.name}'s access? They are signed out at once and can no longer sign in.`,
                confirmLabel: 'Remove access',
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
                title: 'Withdraw invitation',
                text: `Withdraw the invitation to ${invitation.email}? Its link stops working.`,
                confirmLabel: 'Withdraw',
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
  return (
    <>
      {STAFF_ROLES.map((role) => (
        <option key={role} value={role}>
          {ROLE_LABELS[role]}
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
      onFailed(errorMessage(error, 'The invitation could not be sent.'));
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: TEAM_QUERY_KEY });
    }
  }

  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.sectionTitle}>
        Invite someone
      </h2>
      <form className={styles.inviteForm} onSubmit={submit}>
        <TextField label="Name" name="name" required maxLength={200} autoComplete="off" />
        <TextField
          label="Email"
          name="email"
          type="email"
          required
          maxLength={EMAIL_MAX_LENGTH}
          autoComplete="off"
        />
        <SelectField
          label="Role"
          name="role"
          value={role}
          onChange={(event) => setRole(event.currentTarget.value as StaffRoleName)}
        >
          <RoleOptions />
        </SelectField>
        <Button type="submit" busy={busy}>
          Send invitation
        </Button>
      </form>
      <p className={styles.roleHint}>{ROLE_HINT}</p>
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
  const formatDate = useZonedFormat();
  const headingId = useId();
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.sectionTitle}>
        Members ({members.length})
      </h2>
      <ul className={styles.list}>
        {members.map((member) => (
          <li key={member.id} className={styles.row}>
            <div className={styles.who}>
              <span className={styles.name}>
                {member.name}
                {member.email === myEmail ? ' (you)' : ''}
              </span>
              <span className={styles.email}>{member.email}</span>
              <span className={styles.meta}>Joined {formatDate(member.joined_at)}</span>
              <SsoStatus member={member} />
            </div>
            <div className={styles.controls}>
              <select
                className={`${fieldStyles.control} ${styles.roleSelect}`}
                aria-label={`Role of ${member.name}`}
                value={member.role}
                onChange={(event) => onRole(member, event.currentTarget.value as StaffRoleName)}
              >
                <RoleOptions />
              </select>
              {!singleSignOn || member.sso_linked ? null : member.email === myEmail ? (
                <Button variant="secondary" size="small" onClick={onLinkOwnSso}>
                  Link single sign-on
                </Button>
              ) : (
                <Button variant="secondary" size="small" onClick={() => onAllowSsoLink(member)}>
                  Allow single sign-on link
                  <span className="visually-hidden"> for {member.name}</span>
                </Button>
              )}
              {member.email === myEmail ? null : (
                <Button variant="secondary" size="small" onClick={() => onResetSecondFactor(member)}>
                  Reset second factor
                  <span className="visually-hidden"> of {member.name}</span>
                </Button>
              )}
              <Button variant="danger" size="small" onClick={() => onRemove(member)}>
                Remove access
                <span className="visually-hidden"> of {member.name}</span>
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
  const headingId = useId();
  const formatDate = useZonedFormat();
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.sectionTitle}>
        Invitations waiting ({invitations.length})
      </h2>
      {invitations.length === 0 ? (
        <p className={styles.empty}>No invitation is waiting for an answer.</p>
      ) : (
        <ul className={styles.list}>
          {invitations.map((invitation) => (
            <li key={invitation.id} className={styles.row}>
              <div className={styles.who}>
                <span className={styles.name}>
                  {invitation.name} · {ROLE_LABELS[invitation.role]}
                </span>
                <span className={styles.email}>{invitation.email}</span>
                <span className={invitation.expired ? styles.expired : styles.meta}>
                  {invitation.expired
                    ? `Expired ${formatDate(invitation.expires_at)}`
                    : `Sent ${formatDate(invitation.invited_at)}, link works until ${formatDate(invitation.expires_at)}`}
                </span>
              </div>
              <div className={styles.controls}>
                <Button variant="secondary" size="small" onClick={() => onResend(invitation)}>
                  Re-send<span className="visually-hidden"> to {invitation.email}</span>
                </Button>
                <Button variant="ghost" size="small" onClick={() => onRevoke(invitation)}>
                  Withdraw<span className="visually-hidden"> the invitation to {invitation.email}</span>
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
  if (member.sso_linked) return <span className={styles.meta}>Signs in with single sign-on</span>;
  if (member.sso_link_allowed_until)
    return (
      <span className={styles.meta}>
        Their next single sign-on links it, until {formatTime(member.sso_link_allowed_until)}
      </span>
    );
  return null;
}

import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { i18n } from '../../app/i18n';

/**
 * What each audit action means, in words, for the Activity screen. An action not listed here (a
 * newer server's) is shown by its code, which is also what the Action filter takes.
 */
const LABELS: Record<string, MessageDescriptor> = {
  'audit.read': msg`Read the activity log`,
  'audit.export': msg`Exported the activity log`,
  'auth.sign_in': msg`Signed in`,
  'auth.sign_in_fail': msg`Failed sign-in`,
  'auth.lockout': msg`Sign-in locked after too many failures`,
  'auth.second_factor': msg`Confirmed a sign-in with the second factor`,
  'auth.second_factor_fail': msg`Wrong second-factor code or passkey`,
  'auth.recovery_code_use': msg`Used a recovery code`,
  'auth.step_up': msg`Confirmed the second factor again before a change`,
  'auth.step_up_fail': msg`Failed to confirm the second factor again`,
  'auth.password_reset_request': msg`Asked for a link to choose a new password`,
  'auth.password_reset': msg`Chose a new password with a mailed link`,
  'account.password_change': msg`Changed their password`,
  'account.password_change_fail': msg`Wrong current password when changing it`,
  'account.sessions_end': msg`Signed out their other sessions`,
  'staff.app_enrol': msg`Set up an authenticator app`,
  'staff.app_replace': msg`Replaced their authenticator app`,
  'staff.passkey_add': msg`Added a passkey`,
  'staff.passkey_remove': msg`Removed a passkey`,
  'staff.recovery_codes_replace': msg`Replaced recovery codes`,
  'staff.second_factor_reset': msg`Reset a member's second factor`,
  'staff.invite': msg`Invited a staff member`,
  'staff.invite.resend': msg`Re-sent an invitation`,
  'staff.invite.revoke': msg`Withdrew an invitation`,
  'staff.join': msg`Joined the team`,
  'staff.role.change': msg`Changed a member's role`,
  'staff.remove': msg`Removed a member's access`,
  'sso.read': msg`Read the single sign-on settings`,
  'sso.update': msg`Changed single sign-on`,
  'sso.test': msg`Tested the single sign-on connection`,
  'sso.disable': msg`Switched single sign-on off`,
  'settings.read': msg`Read the settings`,
  'settings.update': msg`Changed the settings`,
  'case.list': msg`Listed cases`,
  'case.export': msg`Exported the case list`,
  'case.read': msg`Read a case`,
  'case.acknowledge': msg`Acknowledged a case`,
  'case.assign': msg`Assigned a case`,
  'case.note': msg`Added a case note`,
  'case.resolve': msg`Resolved a case`,
  'case.reopen': msg`Reopened a case`,
  'student.history.read': msg`Read a student's history`,
  'dashboard.read': msg`Read the dashboard`,
  'submissions.export': msg`Exported submissions`,
  'roster.read': msg`Read the roster`,
  'roster.import': msg`Imported a roster`,
  'campaign.create': msg`Scheduled a campaign`,
  'campaign.pause': msg`Paused a campaign`,
  'campaign.resume': msg`Resumed a campaign`,
  'campaign.cancel': msg`Cancelled a campaign`,
  'campaign.not_answered.read': msg`Read who has not answered a campaign`,
  'roster.student_left': msg`Marked a student as left`,
  'roster.student_returned': msg`Put a student back on the roster`,
  'sso.link': msg`Linked an institution sign-in to their account`,
  'staff.sso_link.allow': msg`Allowed a colleague's next institution sign-in to link`,
  'template.create': msg`Created a template`,
  'template.delete': msg`Deleted a template`,
  'template.use': msg`Made a template the active one`,
  'question.add': msg`Added a question`,
  'question.delete': msg`Deleted a question`,
  'question.move': msg`Moved a question`,
  'question.translate': msg`Saved a translation of a question`,
  'question.translation.delete': msg`Deleted a translation of a question`,
  'legal_hold.list': msg`Read the legal holds`,
  'legal_hold.place': msg`Placed a legal hold`,
  'legal_hold.lift': msg`Lifted a legal hold`,
  'erasure.preview': msg`Reviewed what erasing a student's data would remove`,
  'student.erase': msg`Erased a student's data`,
  'records_request.list': msg`Read the records requests`,
  'records_request.open': msg`Opened a records request`,
  'records_request.fulfil': msg`Marked a records request fulfilled`,
  'records.download': msg`Downloaded their own records`,
};

export function actionLabel(action: string): string | null {
  const label = LABELS[action];
  return label ? i18n._(label) : null;
}

/** Who acted: the person, the product itself, or (for a refused sign-in) an account that does not exist. */
export function actorLabel(entry: { actor_email: string | null; action: string }): string {
  if (entry.actor_email) return entry.actor_email;
  return entry.action.startsWith('auth.') ? i18n._(msg`Unknown account`) : i18n._(msg`The system`);
}

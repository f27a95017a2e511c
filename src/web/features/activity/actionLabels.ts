/**
 * What each audit action means, in words, for the Activity screen. An action not listed here (a
 * newer server's) is shown by its code, which is also what the Action filter takes.
 */
const LABELS: Record<string, string> = {
  'audit.read': 'Read the activity log',
  'audit.export': 'Exported the activity log',
  'auth.sign_in': 'Signed in',
  'auth.sign_in_fail': 'Failed sign-in',
  'auth.lockout': 'Sign-in locked after too many failures',
  'auth.second_factor': 'Confirmed a sign-in with the second factor',
  'auth.second_factor_fail': 'Wrong second-factor code or passkey',
  'auth.recovery_code_use': 'Used a recovery code',
  'auth.step_up': 'Confirmed the second factor again before a change',
  'auth.step_up_fail': 'Failed to confirm the second factor again',
  'auth.password_reset_request': 'Asked for a link to choose a new password',
  'auth.password_reset': 'Chose a new password with a mailed link',
  'account.password_change': 'Changed their password',
  'account.password_change_fail': 'Wrong current password when changing it',
  'account.sessions_end': 'Signed out their other sessions',
  'staff.app_enrol': 'Set up an authenticator app',
  'staff.passkey_add': 'Added a passkey',
  'staff.passkey_remove': 'Removed a passkey',
  'staff.recovery_codes_replace': 'Replaced recovery codes',
  'staff.second_factor_reset': "Reset a member's second factor",
  'staff.invite': 'Invited a staff member',
  'staff.invite.resend': 'Re-sent an invitation',
  'staff.invite.revoke': 'Withdrew an invitation',
  'staff.join': 'Joined the team',
  'staff.role.change': "Changed a member's role",
  'staff.remove': "Removed a member's access",
  'sso.read': 'Read the single sign-on settings',
  'sso.update': 'Changed single sign-on',
  'sso.disable': 'Switched single sign-on off',
  'settings.read': 'Read the settings',
  'settings.update': 'Changed the settings',
  'case.list': 'Listed cases',
  'case.export': 'Exported the case list',
  'case.read': 'Read a case',
  'case.acknowledge': 'Acknowledged a case',
  'case.assign': 'Assigned a case',
  'case.note': 'Added a case note',
  'case.resolve': 'Resolved a case',
  'case.reopen': 'Reopened a case',
  'student.history.read': "Read a student's history",
  'dashboard.read': 'Read the dashboard',
  'submissions.export': 'Exported submissions',
  'roster.read': 'Read the roster',
  'roster.import': 'Imported a roster',
  'campaign.create': 'Scheduled a campaign',
  'campaign.pause': 'Paused a campaign',
  'campaign.resume': 'Resumed a campaign',
  'campaign.cancel': 'Cancelled a campaign',
  'campaign.not_answered.read': 'Read who has not answered a campaign',
  'roster.student_left': 'Marked a student as left',
  'roster.student_returned': 'Put a student back on the roster',
  'sso.link': 'Linked an institution sign-in to their account',
  'staff.sso_link.allow': "Allowed a colleague's next institution sign-in to link",
  'template.create': 'Created a template',
  'template.delete': 'Deleted a template',
  'template.use': 'Made a template the active one',
  'question.add': 'Added a question',
  'question.delete': 'Deleted a question',
  'question.move': 'Moved a question',
  'legal_hold.list': 'Read the legal holds',
  'legal_hold.place': 'Placed a legal hold',
  'legal_hold.lift': 'Lifted a legal hold',
  'erasure.preview': "Reviewed what erasing a student's data would remove",
  'student.erase': "Erased a student's data",
  'records_request.list': 'Read the records requests',
  'records_request.open': 'Opened a records request',
  'records_request.fulfil': 'Marked a records request fulfilled',
  'records.download': 'Downloaded their own records',
};

export function actionLabel(action: string): string | null {
  return LABELS[action] ?? null;
}

/** Who acted: the person, the product itself, or (for a refused sign-in) an account that does not exist. */
export function actorLabel(entry: { actor_email: string | null; action: string }): string {
  if (entry.actor_email) return entry.actor_email;
  return entry.action.startsWith('auth.') ? 'Unknown account' : 'The system';
}

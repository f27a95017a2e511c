import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { StaffRoleName } from '../../../common/roles';

/**
 * The roles as the screens name them, in the page's language. The server names them in English
 * (src/common/roles.ts); the wording here is the same.
 */
export const ROLE_LABEL: Record<StaffRoleName, MessageDescriptor> = {
  admin: msg`Admin`,
  counsellor: msg`Counsellor`,
  viewer: msg`Viewer`,
};

/** What a role may see, in a sentence: said before an admin gives someone that role. */
export const ROLE_SEES_TEXT: Record<StaffRoleName, MessageDescriptor> = {
  admin: msg`Admins see and change everything: students’ names and answers, cases, the team, settings and the activity log.`,
  counsellor: msg`Counsellors see students’ names and answers: the dashboard with names, the CSV export, cases and student history.`,
  viewer: msg`Viewers see numbers only, never a student’s name or email.`,
};

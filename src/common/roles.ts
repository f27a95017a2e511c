/**
 * Who may open what (design section 9), in one place: the server's guards and the web app's
 * header and screens all read this table.
 *
 * Roles are named here as the API names them. The database keeps its own name for the admin
 * (`institution_admin`); `STORED_STAFF_ROLE` maps between the two.
 */

export const STAFF_ROLES = ['admin', 'counsellor', 'viewer'] as const;
export type StaffRoleName = (typeof STAFF_ROLES)[number];

export const ROLES = ['admin', 'counsellor', 'viewer', 'student', 'superuser'] as const;
export type RoleName = (typeof ROLES)[number];

/** How each staff role is stored. */
export const STORED_STAFF_ROLE = {
  admin: 'institution_admin',
  counsellor: 'counsellor',
  viewer: 'viewer',
} as const satisfies Record<StaffRoleName, string>;
export type StoredStaffRole = (typeof STORED_STAFF_ROLE)[StaffRoleName];
export type StoredRole = 'student' | StoredStaffRole | 'superuser';

export function roleName(stored: StoredRole): RoleName {
  return stored === 'institution_admin' ? 'admin' : stored;
}

/** What a role may open. Each ability is a screen, or a kind of data on one. */
export const ABILITIES = [
  /** The dashboard's numbers and charts. */
  'dashboard',
  /** Students' names, emails and answers wherever they appear (dashboard lists, CSV, cases). */
  'student_identities',
  /** The CSV export of every submission. */
  'export',
  /** Cases and student history. */
  'cases',
  /** Survey templates and their questions, and the survey preview. */
  'templates',
  /** The roster and scheduled campaigns. */
  'schedule',
  /** Institution settings. */
  'settings',
  /** The team: inviting staff, changing roles, removing access. */
  'team',
  /** The audit log (the Activity screen). */
  'audit',
] as const;
export type Ability = (typeof ABILITIES)[number];

const ABILITIES_OF: Record<RoleName, readonly Ability[]> = {
  admin: ABILITIES,
  counsellor: ['dashboard', 'student_identities', 'export', 'cases'],
  // Numbers only: never a name or an email, so nothing that lists students.
  viewer: ['dashboard'],
  student: [],
  superuser: [],
};

export function can(role: RoleName, ability: Ability): boolean {
  return ABILITIES_OF[role].includes(ability);
}

/** The stored staff roles allowed an ability: what the server's staff guard is given. */
export function storedRolesWith(ability: Ability): StoredStaffRole[] {
  return STAFF_ROLES.filter((role) => can(role, ability)).map((role) => STORED_STAFF_ROLE[role]);
}

/** How a role is called on screen. */
export const ROLE_LABELS: Record<StaffRoleName, string> = {
  admin: 'Admin',
  counsellor: 'Counsellor',
  viewer: 'Viewer',
};

/** What a role may see, in a sentence: said before an admin gives someone that role. */
export const ROLE_SEES: Record<StaffRoleName, string> = {
  admin:
    'Admins see and change everything: students’ names and answers, cases, the team, settings and the activity log.',
  counsellor:
    'Counsellors see students’ names and answers: the dashboard with names, the CSV export, cases and student history.',
  viewer: 'Viewers see numbers only, never a student’s name or email.',
};

/** What a refusal says: the spec's "Admin access required" where only admins may go. */
export function accessRequiredMessage(ability: Ability): string {
  return STAFF_ROLES.every((role) => role === 'admin' || !can(role, ability))
    ? 'Admin access required'
    : 'Staff access required';
}

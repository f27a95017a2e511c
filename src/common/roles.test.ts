import { describe, expect, it } from 'vitest';
import { ABILITIES, accessRequiredMessage, can, roleName, STAFF_ROLES, storedRolesWith } from './roles';

describe('who may open what', () => {
  it('gives admins everything, counsellors names and the export, viewers numbers only', () => {
    const table = Object.fromEntries(
      STAFF_ROLES.map((role) => [role, ABILITIES.filter((ability) => can(role, ability))]),
    );
    expect(table).toEqual({
      admin: [...ABILITIES],
      counsellor: ['dashboard', 'student_identities', 'export', 'cases'],
      viewer: ['dashboard'],
    });
    for (const ability of ABILITIES) {
      expect(can('student', ability)).toBe(false);
      expect(can('superuser', ability)).toBe(false);
    }
  });

  it('names the stored roles the staff guard is given, and the refusal it reads', () => {
    expect(storedRolesWith('dashboard')).toEqual(['institution_admin', 'counsellor', 'viewer']);
    expect(storedRolesWith('student_identities')).toEqual(['institution_admin', 'counsellor']);
    expect(storedRolesWith('team')).toEqual(['institution_admin']);
    expect(accessRequiredMessage('team')).toBe('Admin access required');
    expect(accessRequiredMessage('dashboard')).toBe('Staff access required');
    expect(roleName('institution_admin')).toBe('admin');
    expect(roleName('viewer')).toBe('viewer');
  });
});

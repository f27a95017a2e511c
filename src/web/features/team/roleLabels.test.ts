import { describe, expect, it } from 'vitest';
import { ROLE_LABELS, ROLE_SEES, STAFF_ROLES } from '../../../common/roles';
import { ROLE_LABEL, ROLE_SEES_TEXT } from './roleLabels';

describe('the roles as the screens name them', () => {
  it('say in English what the server says', () => {
    for (const role of STAFF_ROLES) {
      expect(ROLE_LABEL[role].message).toBe(ROLE_LABELS[role]);
      expect(ROLE_SEES_TEXT[role].message).toBe(ROLE_SEES[role]);
    }
  });
});

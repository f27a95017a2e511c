import { describe, expect, it } from 'vitest';
import { invitationMail } from './invitations';

const context = {
  inviteKey: Buffer.alloc(32),
  brandName: 'Wellspring',
  linkBase: 'https://wellness.north.edu',
};

describe('invitation mail', () => {
  it("says until when the link works on the campaign's clock, naming the zone", () => {
    const mail = invitationMail(context, { email: 'sam@north.edu', name: 'Sam' }, 'token', {
      // Monday 9 November 2026, 14:00 UTC: 09:00 in New York.
      expiresAt: Date.UTC(2026, 10, 9, 14),
      reminder: 0,
      timeZone: 'America/New_York',
    });
    expect(mail.text).toContain('The link works until Mon 9 Nov 2026, 09:00 (America/New_York).');
  });
});

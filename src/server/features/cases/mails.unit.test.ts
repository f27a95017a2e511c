import { describe, expect, it } from 'vitest';
import { alertMail, escalationMail } from './mails';

const context = { brandName: 'Wellspring', linkBase: 'https://wellness.north.edu' };
// Tuesday 3 November 2026, 19:05 UTC: 14:05 in New York.
const DUE = Date.UTC(2026, 10, 3, 19, 5);

describe('case mails', () => {
  it("tells the alert's acknowledgement deadline on the institution's clock, naming the zone", () => {
    const mail = alertMail(context, 'duty@north.edu', 7, { at: DUE, timeZone: 'America/New_York' });
    expect(mail.text).toContain('Acknowledge by: Tue 3 Nov 2026, 14:05 (America/New_York)');
    expect(mail.text).not.toContain('19:05');
  });

  it('leaves the deadline out of an alert about a case someone is already on', () => {
    expect(alertMail(context, 'duty@north.edu', 7, null).text).not.toContain('Acknowledge by');
  });

  it("tells an escalation's missed deadline on the institution's clock, naming the zone", () => {
    const mail = escalationMail(context, 'head@north.edu', 7, 2, { at: DUE, timeZone: 'Asia/Kolkata' });
    expect(mail.text).toContain('This is reminder 2.');
    expect(mail.text).toContain('It was due by: Wed 4 Nov 2026, 00:35 (Asia/Kolkata)');
  });
});

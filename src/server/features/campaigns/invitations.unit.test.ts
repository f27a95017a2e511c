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

  it('invites a student who reads Spanish in Spanish, and reminds them in Spanish', () => {
    const options = { expiresAt: Date.UTC(2026, 10, 9, 14), reminder: 0, timeZone: 'America/New_York' };
    const invitee = { email: 'sam@north.edu', name: 'Sam', language: 'es' };
    const first = invitationMail(context, invitee, 'token', options);
    expect(first.subject).toBe('Tu cuestionario de bienestar de Wellspring Health');
    expect(first.text).toBe(
      [
        'Hola, Sam:',
        '',
        'Tu institución te invita a responder un breve cuestionario de bienestar. Solo te llevará unos minutos.',
        '',
        'Tu enlace personal (no lo compartas; funciona una sola vez y solo para ti):',
        'https://wellness.north.edu/survey/invite/token/',
        '',
        'El enlace funciona hasta el lun 9 nov 2026, 09:00 (America/New_York).',
      ].join('\n'),
    );
    const reminder = invitationMail(context, invitee, 'token', { ...options, reminder: 1 });
    expect(reminder.subject).toBe('Recordatorio: tu cuestionario de bienestar de Wellspring Health');
    expect(reminder.text).toContain('Te recordamos que tu cuestionario de bienestar sigue abierto.');
  });

  it('keeps the English wording for a student without a language', () => {
    const mail = invitationMail(context, { email: 'sam@north.edu', name: 'Sam', language: null }, 'token', {
      expiresAt: Date.UTC(2026, 10, 9, 14),
      reminder: 1,
      timeZone: 'UTC',
    });
    expect(mail.subject).toBe('Reminder: your Wellspring Health wellness check-in');
    expect(mail.text).toContain('A reminder: your wellness check-in is still open. It takes a few minutes.');
  });
});

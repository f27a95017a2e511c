import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createTestApp,
  enrolAuthenticatorApp,
  TestAgent,
  type TestContext,
} from '../../../../test/helpers/app';
import { notSigningIn } from '../../../../test/helpers/audit';
import { TEST_DIALECTS } from '../../../../test/helpers/databases';
import { expectError } from '../../../../test/helpers/errors';
import { makeTwoInstitutions, makeUser, TEST_PASSWORD } from '../../../../test/helpers/factories';
import type { InvitationResponse, TeamResponse } from '../../../common/schemas/staff';
import { INVALID_LOGIN } from '../auth';
import {
  ALREADY_INVITED,
  ALREADY_MEMBER,
  INVITATION_EXPIRED,
  INVITATION_LIFETIME,
  INVITATION_NOT_FOUND,
  INVITATION_REVOKED,
  INVITATION_USED,
  LAST_ADMIN,
  MEMBER_NOT_FOUND,
} from './service';

const STRONG = 'quiet-lantern-orchard-47';

describe.each(TEST_DIALECTS)('the team on %s', (dialect) => {
  let ctx: TestContext;
  let cast: Awaited<ReturnType<typeof makeTwoInstitutions>>;
  let admin: TestAgent;

  beforeEach(async () => {
    ctx = await createTestApp(dialect);
    cast = await makeTwoInstitutions(ctx.db.kysely);
    admin = new TestAgent(ctx.app);
    await admin.signInDirectly(ctx.db, cast.adminA.email);
  });
  afterEach(async () => {
    vi.useRealTimers();
    await ctx.close();
  });

  /** The token of the newest invitation mail to an address, read from the mail as the invitee would. */
  async function tokenMailedTo(email: string): Promise<string> {
    const mail = await ctx.db.kysely
      .selectFrom('mail_outbox')
      .select('body')
      .where('to_address', '=', email)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const token = /\/staff\/invite\/([A-Za-z0-9_-]+)\//.exec(mail.body)?.[1];
    if (!token) throw new Error(`no invitation link in: ${mail.body}`);
    return token;
  }

  async function invite(email: string, role = 'counsellor', name = 'Cora Counsel') {
    const response = await admin.post<InvitationResponse>('/api/staff/', { email, name, role });
    expect(response.status, response.text).toBe(201);
    return response.body.invitation;
  }

  async function join(token: string, password = STRONG) {
    const agent = new TestAgent(ctx.app);
    const response = await agent.post(`/api/staff/invite/${token}/`, {
      password,
      confirm_password: password,
    });
    return { agent, response };
  }

  /** What the team's admins and members did; their sign-ins and own second factors are left out. */
  const auditActions = async () =>
    (
      await ctx.db.kysely
        .selectFrom('audit_log')
        .select(['action', 'actor_email'])
        .where('institution_id', '=', cast.a.id)
        .where(notSigningIn)
        .orderBy('id')
        .execute()
    ).map((row) => `${row.actor_email} ${row.action}`);

  it('invites by mail with a one-time link stored hashed, and the invitee joins with the role', async () => {
    const invitation = await invite('Cora@North.edu');
    expect(invitation).toMatchObject({ email: 'cora@north.edu', role: 'counsellor', expired: false });
    expect(Date.parse(invitation.expires_at) - Date.parse(invitation.invited_at)).toBe(INVITATION_LIFETIME);
    const token = await tokenMailedTo('cora@north.edu');
    const stored = await ctx.db.kysely
      .selectFrom('staff_invitations')
      .select('token_hash')
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).not.toContain(token);
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);

    const team = await admin.get<TeamResponse>('/api/staff/');
    expect(team.body.invitations.map((row) => row.email)).toEqual(['cora@north.edu']);

    const details = await new TestAgent(ctx.app).get(`/api/staff/invite/${token}/`);
    expect(details.body).toEqual({
      success: true,
      email: 'cora@north.edu',
      name: 'Cora Counsel',
      role: 'counsellor',
      institution_name: 'North University',
    });
    const { agent, response } = await join(token);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      user: { role: 'counsellor', email: 'cora@north.edu' },
    });
    // Signed in by the password just set: staff set up a second factor before anything else.
    expect((await agent.get('/api/user/')).body).toMatchObject({
      role: 'counsellor',
      second_factor: 'enrol',
    });
    expect((await agent.get('/api/dashboard/')).status).toBe(403);
    await enrolAuthenticatorApp(agent, 'cora@north.edu');
    expect((await agent.get('/api/dashboard/')).status).toBe(200);
    // The member signs in with the password they chose.
    await new TestAgent(ctx.app).login('cora@north.edu', STRONG);

    const after = await admin.get<TeamResponse>('/api/staff/');
    expect(after.body.invitations).toEqual([]);
    expect(after.body.members.map((member) => [member.email, member.role])).toEqual(
      expect.arrayContaining([
        ['admin@north.edu', 'admin'],
        ['cora@north.edu', 'counsellor'],
      ]),
    );
    expect(after.body.members.some((member) => member.email.endsWith('south.edu'))).toBe(false);
    expect(await auditActions()).toEqual([
      'admin@north.edu staff.invite',
      'cora@north.edu staff.join',
      'cora@north.edu dashboard.read',
    ]);
  });

  it('greets the invitee first-name first and names the institution in the mail', async () => {
    await invite('linh@north.edu', 'counsellor', 'Nguyen, Linh');
    const mail = await ctx.db.kysely
      .selectFrom('mail_outbox')
      .select(['subject', 'body'])
      .where('to_address', '=', 'linh@north.edu')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toContain('North University');
    expect(mail.body.split('\n')[0]).toBe('Hello Linh Nguyen,');
    expect(mail.body).toContain('You have been invited to join North University');
    expect(mail.body).not.toContain('Nguyen, Linh');
  });

  it('refuses a used, a withdrawn, an expired and an unknown link, and one replaced by a re-send', async () => {
    await invite('used@north.edu');
    const used = await tokenMailedTo('used@north.edu');
    expect((await join(used)).response.status).toBe(200);
    expectError((await join(used)).response, 404, 'NOT_FOUND', INVITATION_USED);
    expectError(
      await new TestAgent(ctx.app).get(`/api/staff/invite/${used}/`),
      404,
      'NOT_FOUND',
      INVITATION_USED,
    );

    const withdrawn = await invite('gone@north.edu');
    const withdrawnToken = await tokenMailedTo('gone@north.edu');
    expect((await admin.delete(`/api/staff/invitations/${withdrawn.id}/`)).status).toBe(200);
    expectError((await join(withdrawnToken)).response, 404, 'NOT_FOUND', INVITATION_REVOKED);

    const resent = await invite('again@north.edu');
    const first = await tokenMailedTo('again@north.edu');
    expect((await admin.post(`/api/staff/invitations/${resent.id}/resend/`)).status).toBe(200);
    const second = await tokenMailedTo('again@north.edu');
    expect(second).not.toBe(first);
    expectError((await join(first)).response, 404, 'NOT_FOUND', INVITATION_NOT_FOUND);
    expectError((await join('x'.repeat(43))).response, 404, 'NOT_FOUND', INVITATION_NOT_FOUND);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + INVITATION_LIFETIME + 1);
    expectError((await join(second)).response, 404, 'NOT_FOUND', INVITATION_EXPIRED);
    // A week on, the admin's own session has long ended too.
    admin = new TestAgent(ctx.app);
    await admin.signInDirectly(ctx.db, cast.adminA.email);
    const team = await admin.get<TeamResponse>('/api/staff/');
    expect(team.body.invitations.find((row) => row.email === 'again@north.edu')?.expired).toBe(true);
    // A re-send gives an expired invitation a new week.
    expect((await admin.post(`/api/staff/invitations/${resent.id}/resend/`)).status).toBe(200);
    expect((await join(await tokenMailedTo('again@north.edu'))).response.status).toBe(200);
    expect(
      await ctx.db.kysely.selectFrom('users').select('id').where('email', 'in', ['gone@north.edu']).execute(),
    ).toEqual([]);
  });

  it('holds invitations to the password rules, and refuses bad input changing nothing', async () => {
    await invite('pw@north.edu');
    const token = await tokenMailedTo('pw@north.edu');
    const weak = await join(token, 'password');
    expect(weak.response.status).toBe(400);
    expect(weak.response.body).toMatchObject({ code: 'BAD_REQUEST' });
    const mismatch = await new TestAgent(ctx.app).post(`/api/staff/invite/${token}/`, {
      password: STRONG,
      confirm_password: `${STRONG}x`,
    });
    expectError(mismatch, 400, 'BAD_REQUEST', 'Passwords do not match');

    const before = await ctx.db.kysely.selectFrom('staff_invitations').select('id').execute();
    for (const [body, message] of [
      [{ email: 'not-an-email', name: 'A', role: 'viewer' }, 'Enter a valid email address'],
      [{ email: 'a@north.edu', name: 'A', role: 'owner' }, 'Role must be admin, counsellor or viewer'],
      [{ email: 'a@north.edu', name: '  ', role: 'viewer' }, 'Name is required'],
      [{ email: 'a@north.edu', role: 'viewer' }, 'Name is required'],
    ] as const) {
      expectError(await admin.post('/api/staff/', body), 400, 'VALIDATION_FAILED', message);
    }
    expectError(
      await admin.post('/api/staff/', { email: cast.studentA.email, name: 'S', role: 'viewer' }),
      409,
      'CONFLICT',
      ALREADY_MEMBER(cast.studentA.email),
    );
    expectError(
      await admin.post('/api/staff/', { email: 'pw@north.edu', name: 'P', role: 'viewer' }),
      409,
      'CONFLICT',
      ALREADY_INVITED('pw@north.edu'),
    );
    expect(await ctx.db.kysely.selectFrom('staff_invitations').select('id').execute()).toEqual(before);
  });

  it('does not tell an admin that an address has an account at another institution', async () => {
    const elsewhere = await admin.post<InvitationResponse>('/api/staff/', {
      email: cast.adminB.email,
      name: 'B',
      role: 'viewer',
    });
    const nobody = await admin.post<InvitationResponse>('/api/staff/', {
      email: 'nobody@north.edu',
      name: 'N',
      role: 'viewer',
    });
    // The same answer as for an address without an account.
    expect([elsewhere.status, nobody.status]).toEqual([201, 201]);
    expect(Object.keys(elsewhere.body.invitation).sort()).toEqual(Object.keys(nobody.body.invitation).sort());
    // Only the address's owner, following the link, learns that it cannot be used; nothing changes.
    const { response } = await join(await tokenMailedTo(cast.adminB.email));
    expectError(response, 409, 'CONFLICT', ALREADY_MEMBER(cast.adminB.email));
    const owner = await ctx.db.kysely
      .selectFrom('users')
      .select(['institution_id', 'role'])
      .where('email', '=', cast.adminB.email)
      .executeTakeFirstOrThrow();
    expect(owner).toEqual({ institution_id: cast.b.id, role: 'institution_admin' });
    const team = await admin.get<TeamResponse>('/api/staff/');
    expect(team.body.members.map((member) => member.email)).not.toContain(cast.adminB.email);
    expect(team.body.invitations.map((row) => row.email)).toContain(cast.adminB.email);
  });

  it("changes roles at once, ends the member's sessions, and keeps one admin", async () => {
    const coun = await makeUser(ctx.db.kysely, {
      email: 'coun@north.edu',
      role: 'counsellor',
      institutionId: cast.a.id,
    });
    const member = new TestAgent(ctx.app);
    await member.login(coun.email, TEST_PASSWORD);
    const changed = await admin.request({
      method: 'PUT',
      url: `/api/staff/${coun.id}/`,
      payload: { role: 'viewer' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ member: { role: 'viewer', email: 'coun@north.edu' } });
    expect((await member.get('/api/user/')).status).toBe(401);
    const again = new TestAgent(ctx.app);
    await again.login(coun.email, TEST_PASSWORD);
    expect((await again.get('/api/user/')).body).toMatchObject({ role: 'viewer' });
    expect((await again.get('/api/dashboard/flagged/')).status).toBe(403);

    expectError(
      await admin.request({
        method: 'PUT',
        url: `/api/staff/${cast.adminA.id}/`,
        payload: { role: 'viewer' },
      }),
      409,
      'CONFLICT',
      LAST_ADMIN,
    );
    expectError(await admin.delete(`/api/staff/${cast.adminA.id}/`), 409, 'CONFLICT', LAST_ADMIN);
    expectError(
      await admin.request({ method: 'PUT', url: `/api/staff/${coun.id}/`, payload: { role: 'root' } }),
      400,
      'VALIDATION_FAILED',
      'Role must be admin, counsellor or viewer',
    );
    // Another institution's staff, a student, and no one at all are all unknown here.
    for (const id of [cast.adminB.id, cast.studentA.id, 999_999]) {
      expectError(
        await admin.request({ method: 'PUT', url: `/api/staff/${id}/`, payload: { role: 'viewer' } }),
        404,
        'NOT_FOUND',
        MEMBER_NOT_FOUND,
      );
      expectError(await admin.delete(`/api/staff/${id}/`), 404, 'NOT_FOUND', MEMBER_NOT_FOUND);
    }
    const southAdmin = await ctx.db.kysely
      .selectFrom('users')
      .select('role')
      .where('id', '=', cast.adminB.id)
      .executeTakeFirstOrThrow();
    expect(southAdmin.role).toBe('institution_admin');

    // With a second admin, the first may step down.
    expect(
      (await admin.request({ method: 'PUT', url: `/api/staff/${coun.id}/`, payload: { role: 'admin' } }))
        .status,
    ).toBe(200);
    expect(
      (
        await admin.request({
          method: 'PUT',
          url: `/api/staff/${cast.adminA.id}/`,
          payload: { role: 'counsellor' },
        })
      ).status,
    ).toBe(200);
    expect((await admin.get('/api/user/')).status).toBe(401);
    expect(await auditActions()).toEqual([
      'admin@north.edu staff.role.change',
      'admin@north.edu staff.role.change',
      'admin@north.edu staff.role.change',
    ]);
  });

  it('keeps one admin when two admins demote each other at the same moment', async () => {
    const second = await makeUser(ctx.db.kysely, {
      email: 'second@north.edu',
      role: 'institution_admin',
      institutionId: cast.a.id,
    });
    const other = new TestAgent(ctx.app);
    await other.login(second.email, TEST_PASSWORD);
    const demote = (agent: TestAgent, id: number) =>
      agent.request({ method: 'PUT', url: `/api/staff/${id}/`, payload: { role: 'viewer' } });
    const outcomes = (await Promise.all([demote(admin, second.id), demote(other, cast.adminA.id)])).map(
      (response) => `${response.status} ${(response.body as { code?: string }).code ?? ''}`.trim(),
    );
    // One wins. The other is refused as the last admin, or finds its own session already ended
    // by the demotion: anonymous (401), or with a CSRF token of a session that is gone (403).
    expect(outcomes.filter((outcome) => outcome === '200')).toHaveLength(1);
    expect(
      outcomes.filter((outcome) =>
        ['409 CONFLICT', '401 UNAUTHENTICATED', '403 CSRF_FAILED'].includes(outcome),
      ),
      outcomes.join(', '),
    ).toHaveLength(1);
    const admins = await ctx.db.kysely
      .selectFrom('users')
      .select('id')
      .where('institution_id', '=', cast.a.id)
      .where('role', '=', 'institution_admin')
      .execute();
    expect(admins).toHaveLength(1);
  });

  it('removes access at once and for good, until invited back', async () => {
    const viewer = await makeUser(ctx.db.kysely, {
      email: 'vic@north.edu',
      role: 'viewer',
      institutionId: cast.a.id,
    });
    const member = new TestAgent(ctx.app);
    await member.login(viewer.email, TEST_PASSWORD);
    expect((await admin.delete(`/api/staff/${viewer.id}/`)).status).toBe(200);
    expect((await member.get('/api/dashboard/')).status).toBe(401);
    expectError(
      await new TestAgent(ctx.app).post('/api/login/', { email: viewer.email, password: TEST_PASSWORD }),
      401,
      'UNAUTHENTICATED',
      INVALID_LOGIN,
    );
    const team = await admin.get<TeamResponse>('/api/staff/');
    expect(team.body.members.map((row) => row.email)).not.toContain('vic@north.edu');
    expectError(await admin.delete(`/api/staff/${viewer.id}/`), 404, 'NOT_FOUND', MEMBER_NOT_FOUND);

    await invite('vic@north.edu', 'counsellor', 'Vic Again');
    const { agent, response } = await join(await tokenMailedTo('vic@north.edu'));
    expect(response.status, response.text).toBe(200);
    expect((await agent.get('/api/user/')).body).toMatchObject({ role: 'counsellor', name: 'Vic Again' });
    const rows = await ctx.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'vic@north.edu')
      .execute();
    expect(rows).toEqual([{ id: viewer.id }]);
  });

  it("deletes a removed member's passkeys, app, recovery codes, sessions and institution identities: invited back, they enrol anew", async () => {
    const counsellor = await makeUser(ctx.db.kysely, {
      email: 'kim@north.edu',
      role: 'counsellor',
      institutionId: cast.a.id,
    });
    const member = new TestAgent(ctx.app);
    await member.login(counsellor.email, TEST_PASSWORD);
    await ctx.db.kysely
      .insertInto('passkeys')
      .values({
        user_id: counsellor.id,
        credential_id: 'old-laptop',
        public_key: 'key',
        counter: 0,
        transports: '[]',
        created_at: 1,
        last_used_at: null,
        name: 'Old laptop',
      })
      .execute();
    await ctx.db.kysely
      .insertInto('sso_identities')
      .values({
        issuer: 'https://id.north.edu',
        subject: 'kim',
        user_id: counsellor.id,
        linked_by: 'session',
        linked_at: 1,
      })
      .execute();
    await ctx.db.kysely
      .insertInto('sso_link_grants')
      .values({ user_id: counsellor.id, granted_by: null, granted_at: 1, expires_at: Date.now() + 60_000 })
      .execute();
    const left = async () =>
      Promise.all(
        (
          [
            'passkeys',
            'totp_credentials',
            'recovery_codes',
            'sessions',
            'sso_identities',
            'sso_link_grants',
          ] as const
        ).map(async (table) => [
          table,
          (
            await ctx.db.kysely
              .selectFrom(table)
              .select('user_id')
              .where('user_id', '=', counsellor.id)
              .execute()
          ).length,
        ]),
      );
    expect(Object.fromEntries(await left())).toMatchObject({ passkeys: 1, totp_credentials: 1, sessions: 1 });

    expect((await admin.delete(`/api/staff/${counsellor.id}/`)).status).toBe(200);
    expect(Object.fromEntries(await left())).toEqual({
      passkeys: 0,
      totp_credentials: 0,
      recovery_codes: 0,
      sessions: 0,
      sso_identities: 0,
      sso_link_grants: 0,
    });

    await invite('kim@north.edu', 'counsellor', 'Kim Again');
    const { agent, response } = await join(await tokenMailedTo('kim@north.edu'));
    expect(response.status, response.text).toBe(200);
    expect((await agent.get('/api/user/')).body).toMatchObject({ second_factor: 'enrol' });
  });

  it("refuses everyone but the institution's admins, and another institution's invitations", async () => {
    const invitation = await invite('x@north.edu');
    const southAdmin = new TestAgent(ctx.app);
    await southAdmin.signInDirectly(ctx.db, cast.adminB.email);
    expectError(
      await southAdmin.post(`/api/staff/invitations/${invitation.id}/resend/`),
      404,
      'NOT_FOUND',
      INVITATION_NOT_FOUND,
    );
    expectError(
      await southAdmin.delete(`/api/staff/invitations/${invitation.id}/`),
      404,
      'NOT_FOUND',
      INVITATION_NOT_FOUND,
    );
    expect((await southAdmin.get<TeamResponse>('/api/staff/')).body.invitations).toEqual([]);

    await makeUser(ctx.db.kysely, { email: 'c@north.edu', role: 'counsellor', institutionId: cast.a.id });
    await makeUser(ctx.db.kysely, { email: 'v@north.edu', role: 'viewer', institutionId: cast.a.id });
    for (const email of ['c@north.edu', 'v@north.edu', cast.studentA.email]) {
      const agent = new TestAgent(ctx.app);
      await agent.login(email, TEST_PASSWORD);
      expectError(await agent.get('/api/staff/'), 403, 'FORBIDDEN', 'Admin access required');
      expectError(
        await agent.post('/api/staff/', { email: 'y@north.edu', name: 'Y', role: 'admin' }),
        403,
        'FORBIDDEN',
        'Admin access required',
      );
      expectError(
        await agent.post('/api/staff/', { nonsense: true }),
        403,
        'FORBIDDEN',
        'Admin access required',
      );
    }
    expectError(
      await new TestAgent(ctx.app).get('/api/staff/'),
      401,
      'UNAUTHENTICATED',
      'Authentication required',
    );
  });
});

import type { ColumnType, Generated, Insertable } from 'kysely';
import type { InstrumentId } from '../../common/instruments';
import type { RiskTier } from '../../common/risk/tiers';
import type { StoredRole, StoredStaffRole } from '../../common/roles';
import type { CampaignStatus, Weekday } from '../../common/schemas/campaigns';
import type { QuestionCategory, QuestionType, StoredQuestionType } from '../../common/schemas/templates';

/** Timestamps are epoch milliseconds in a bigint column on both databases. */
type Millis = number;

/** Staff of one institution: admin (everything), counsellor (cases and students), viewer (numbers only). */
export type StaffRole = StoredStaffRole;
export type Role = StoredRole;

export interface InstitutionsTable {
  id: Generated<number>;
  name: string;
  /** JSON array of crisis resources; null means the product defaults. */
  crisis_resources: string | null;
  created_at: Millis;
  /** JSON arrays of addresses: who gets urgent alerts, and who hears of overdue cases. */
  alert_emails: Generated<string>;
  escalation_emails: Generated<string>;
  /** How long a new case may wait for acknowledgement, by tier, in whole minutes. */
  urgent_ack_minutes: Generated<number>;
  elevated_ack_minutes: Generated<number>;
  /** IANA time zone: deadlines, escalations and the daily digest follow its calendar. */
  time_zone: Generated<string>;
  /** Groups of fewer students are suppressed for staff who may not see names (at least 3). */
  small_group_threshold: Generated<number>;
  /** Retention (design section 14), in months: answers, resolved cases, the audit log. */
  answers_retention_months: Generated<number>;
  closed_cases_retention_months: Generated<number>;
  audit_retention_months: Generated<number>;
}

export interface InstitutionDomainsTable {
  domain: string;
  institution_id: number;
}

export interface UsersTable {
  id: Generated<number>;
  institution_id: number | null;
  email: string;
  name: string;
  password_hash: string;
  role: Role;
  created_at: Millis;
  /** When an admin removed the member's access; they keep their row and cannot sign in. */
  removed_at: Millis | null;
  /** The language they read mail in (migration 036); null for English. */
  language: string | null;
}

/**
 * How a session was signed in: a password alone, a password and then a second factor, a
 * passkey alone, or the institution's single sign-on (design section 11). Staff sessions signed
 * in with a password alone reach nothing of staff.
 */
export type SignInMethod =
  | 'password'
  | 'password_and_second_factor'
  | 'passkey'
  /** Through the institution's provider, one factor as far as the app knows. */
  | 'sso'
  /** Through the institution's provider, which asserted a multi-factor sign-in the institution counts. */
  | 'sso_with_provider_mfa'
  | 'sso_and_second_factor';

/** An institution's OpenID Connect provider (design section 11). */
export interface SsoSettingsTable {
  institution_id: number;
  issuer: string;
  client_id: string;
  /** Sealed (lib/sealed.ts); null for a public client. */
  client_secret_sealed: string | null;
  /** JSON array of lower-case email domains allowed to sign in this way. */
  domains: string;
  /** 1 or 0: whether the institution's students may still sign in with a password. */
  student_password_sign_in: number;
  /** 1 or 0: the provider's addresses count for a first link even without an `email_verified` claim. */
  email_authoritative: Generated<number>;
  /** 1 or 0: staff whose provider asserts a multi-factor sign-in (`amr`/`acr`) need no second factor of ours. */
  provider_mfa_counts: Generated<number>;
  updated_at: Millis;
}

/** An institution's last connection test that passed: which provider and client, and when. */
export interface SsoConnectionTestsTable {
  institution_id: number;
  issuer: string;
  client_id: string;
  passed_at: Millis;
}

/**
 * How a linked identity came to be linked: a verified address (students), the account's own
 * signed-in browser, or a staff member's sign-in an admin allowed to link (sso_link_grants).
 */
export type SsoLinkedBy = 'address' | 'session' | 'admin_grant';

/** A mailed link to choose a new password: its token's hash, good once until it expires. */
export interface PasswordResetsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: Millis;
  expires_at: Millis;
  used_at: Millis | null;
}

/** An admin's permission for a staff member's next single sign-on to link their identity: once, for a day. */
export interface SsoLinkGrantsTable {
  user_id: number;
  granted_by: number | null;
  granted_at: Millis;
  expires_at: Millis;
}

/** A provider's identity (issuer and subject) linked to one account. */
export interface SsoIdentitiesTable {
  issuer: string;
  subject: string;
  user_id: number;
  linked_by: SsoLinkedBy;
  linked_at: Millis;
}

/** A sign-in sent to a provider and not yet back: used once, on any instance. */
export interface SsoAttemptsTable {
  /** SHA-256 of the state: the state itself is never stored. */
  state_hash: string;
  institution_id: number;
  nonce: string;
  code_verifier: string;
  next_path: string | null;
  /** SHA-256 of the cookie of the browser that started it: only that browser may finish it. */
  browser_hash: string | null;
  /** The account signed in when it started, to link the identity to; null for a sign-in. */
  link_user_id: number | null;
  expires_at: Millis;
}

export interface SessionsTable {
  /** SHA-256 of the cookie value: a stolen database does not yield live sessions. */
  id_hash: string;
  user_id: number;
  created_at: Millis;
  last_seen_at: Millis;
  sign_in_method: SignInMethod;
  /** When a second factor was last proven in this session (its sign-in or a step-up); null for none. */
  factor_proven_at: Millis | null;
}

/** A staff member's authenticator app (TOTP, RFC 6238); the secret is sealed (lib/sealed.ts). */
export interface TotpCredentialsTable {
  user_id: number;
  secret_sealed: string;
  confirmed_at: Millis | null;
  last_time_step: number | null;
  created_at: Millis;
  /** Sealed; a new app waiting for its first code, while the confirmed one above still works. */
  replacement_secret_sealed: string | null;
  replacement_started_at: Millis | null;
}

/** A staff member's passkey (WebAuthn credential). */
export interface PasskeysTable {
  id: Generated<number>;
  user_id: number;
  credential_id: string;
  /** base64url of the COSE public key. */
  public_key: string;
  counter: number;
  /** JSON array of transport hints. */
  transports: string;
  created_at: Millis;
  last_used_at: Millis | null;
  /** What the owner calls it ("Work laptop"); null for passkeys added before names. */
  name: string | null;
}

/** `step_up`: a signed-in staff member proving their passkey again before changing how they sign in. */
export type PasskeyPurpose = 'register' | 'second_factor' | 'sign_in' | 'step_up';

/** A WebAuthn challenge the server issued, accepted once before it expires. */
export interface PasskeyChallengesTable {
  challenge: string;
  purpose: PasskeyPurpose;
  user_id: number | null;
  expires_at: Millis;
}

/** Single-use recovery codes; only a keyed hash of each is kept. */
export interface RecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: Millis | null;
  created_at: Millis;
}

/** One rate-limit counter: hits inside the window that started at window_started_at. */
export interface LimitCountersTable {
  key: string;
  hits: number;
  window_started_at: Millis;
  expires_at: Millis;
}

/** One of a user's live-dashboard stream slots, held by one open stream until it expires. */
export interface StreamSlotsTable {
  user_id: number;
  slot: number;
  holder: string;
  expires_at: Millis;
}

export interface SurveyTemplatesTable {
  id: Generated<number>;
  institution_id: number;
  hash_link: string;
  created_at: Millis;
}

export interface ActiveTemplatesTable {
  institution_id: number;
  template_id: number;
}

export interface QuestionsTable {
  id: Generated<number>;
  template_id: number;
  /** An instrument block keeps the instrument's name here; its items come from the library. */
  question_text: string;
  question_type: StoredQuestionType;
  category: QuestionCategory;
  /** JSON object { "1".."5": label } or null. */
  answer_choices: string | null;
  position: number;
  created_at: Millis;
  /** Set only on an instrument block (question_type 'instrument'). */
  instrument_id: InstrumentId | null;
}

export interface RespondentsTable {
  id: Generated<number>;
  institution_id: number;
  email: string;
  name: string;
  user_id: number | null;
  created_at: Millis;
}

export interface SubmissionsTable {
  id: Generated<number>;
  institution_id: number;
  template_id: number | null;
  respondent_id: number;
  user_id: number | null;
  client_submission_id: string | null;
  student_name: string;
  school_email: string;
  tier: RiskTier;
  /** JSON array of strings. */
  reasons: string;
  likert_mean: number | null;
  /** Version of the crisis-language lexicon that screened it; null for submissions stored before versions were. */
  lexicon_version: string | null;
  created_at: Millis;
  /** When the address the submission names was proven; null while it is not (design section 8). */
  verified_at: Millis | null;
  /** Hash of the sending browser's visitor cookie: that browser may prove the address later. */
  visitor_hash: string | null;
  /** Unproven: hash of the secret the sending tab holds; its proof promotes it only with that secret. */
  proof_token_hash: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface AnswersTable {
  id: Generated<number>;
  submission_id: number;
  question_id: number | null;
  /** Copied from the question so analytics survive the question's deletion. */
  question_text: string;
  question_type: QuestionType;
  category: QuestionCategory;
  value: string;
  /** The language the question was shown in: the one asked for when it had a translation in it, else the default. */
  language: Generated<string>;
}

/** A question's wording in another language than the default (never an instrument's). */
export interface QuestionTranslationsTable {
  id: Generated<number>;
  question_id: number;
  language: string;
  question_text: string;
  /** JSON object { "1".."5": label } with the question's own keys; null when it has none. */
  answer_choices: string | null;
  /** questionFingerprint of the question's text and choices this was translated from. */
  source_fingerprint: string;
  translated_by: number | null;
  translated_at: Millis;
}

/** One scored instrument block of a submission (design section 13). */
export interface InstrumentResultsTable {
  id: Generated<number>;
  submission_id: number;
  question_id: number | null;
  instrument_id: InstrumentId;
  /** What the sitting was scored as: a PHQ-2 past its cut point is a PHQ-9. */
  scored_as: InstrumentId;
  /** JSON object: item id -> value or "declined". */
  item_answers: string;
  total: number | null;
  band: string | null;
  tier: RiskTier;
  reason: string;
  /** 1 or 0. */
  acute: number;
  safety_assessment: number;
  created_at: Millis;
}

export interface DraftsTable {
  user_id: number;
  template_id: number;
  /** JSON of { student_name, school_email, answers }. */
  data: string;
  updated_at: Millis;
}

export interface ContactRequestsTable {
  id: Generated<number>;
  institution: string;
  name: string;
  email: string;
  students: number | null;
  message: string;
  created_at: Millis;
}

/** Dashboard rollups (migration 003): per-institution counters kept exact in the submit transaction. */
export interface DashboardTotalsTable {
  institution_id: number;
  responses: Generated<number>;
  students: Generated<number>;
  flagged_students: Generated<number>;
  stable_students: Generated<number>;
  good_sleep: Generated<number>;
  poor_sleep: Generated<number>;
  low_stress: Generated<number>;
  moderate_stress: Generated<number>;
  high_stress: Generated<number>;
}

export interface DashboardMonthsTable {
  institution_id: number;
  /** UTC year * 12 + month index. */
  month: number;
  responses: Generated<number>;
  students: Generated<number>;
  new_students: Generated<number>;
  support_answers: Generated<number>;
  support_positive: Generated<number>;
}

export interface DashboardStudentsTable {
  id: Generated<number>;
  institution_id: number;
  email: string;
  known_at: Millis;
  latest_submission_id: number | null;
  latest_at: Millis | null;
  latest_tier: SubmissionsTable['tier'] | null;
  latest_priority: Generated<number>;
  latest_sleep_mean: number | null;
  latest_stress_mean: number | null;
}

export interface DashboardStudentMonthsTable {
  student_id: number;
  month: number;
}

export interface DashboardLatestDaysTable {
  institution_id: number;
  /** UTC days since the epoch. */
  day: number;
  students: Generated<number>;
}

export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  body: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: Millis;
  /** Which delivery attempt holds the row, and until when; another instance waits for it. */
  lease_token: string | null;
  lease_until: Millis | null;
  sent_at: Millis | null;
  last_error: string | null;
  created_at: Millis;
  /** Higher goes first (alerts before bulk mail). */
  priority: Generated<number>;
}

export interface VerificationCodesTable {
  id: Generated<number>;
  email: string;
  visitor_hash: string;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: Millis;
  used_at: Millis | null;
  created_at: Millis;
  /** What the code was sent for: only a registration's own code completes it. */
  purpose: Generated<CodePurpose>;
}

export type CodePurpose = 'address' | 'registration';

export interface AddressProofsTable {
  visitor_hash: string;
  email: string;
  proven_at: Millis;
}

export interface PendingRegistrationsTable {
  id: Generated<number>;
  institution_id: number;
  email: string;
  name: string;
  password_hash: string;
  visitor_hash: string;
  created_at: Millis;
  /** The language the registration was asked in: the account's once it is proven. */
  language: string | null;
}

export interface JobsTable {
  id: Generated<number>;
  kind: string;
  /** Names the work itself: scheduling the same key again keeps the one row. */
  key: string;
  /** JSON, read back with the kind's own schema. */
  payload: string;
  status: 'pending' | 'done' | 'failed';
  run_at: Millis;
  attempts: Generated<number>;
  /** Which run holds the job, and until when; another instance waits for it. */
  lease_token: string | null;
  lease_until: Millis | null;
  last_error: string | null;
  finished_at: Millis | null;
  created_at: Millis;
}

export interface AuditLogTable {
  id: Generated<number>;
  institution_id: number;
  /** Null for the product's own actions (jobs); the email is kept as it was at the time. */
  actor_user_id: number | null;
  actor_email: string | null;
  action: string;
  subject_type: string | null;
  subject_id: string | null;
  /** JSON with what the action needs to be understood later; never answers. */
  detail: string | null;
  address: string | null;
  at: Millis;
}

/** An invitation to join an institution's staff (design section 9). */
export interface StaffInvitationsTable {
  id: Generated<number>;
  institution_id: number;
  email: string;
  name: string;
  role: StaffRole;
  /** SHA-256 of the token the link carries. */
  token_hash: string;
  invited_by: number | null;
  created_at: Millis;
  expires_at: Millis;
  accepted_at: Millis | null;
  revoked_at: Millis | null;
}

export type CaseStatus = 'new' | 'acknowledged' | 'in_progress' | 'resolved';

/** A student's follow-up (design section 9): opened by a flagged submission, worked by staff. */
export interface CasesTable {
  id: Generated<number>;
  institution_id: number;
  respondent_id: number;
  /** The respondent while the case is open; null once resolved (one open case per student). */
  open_respondent_id: number | null;
  /** The most serious tier among its submissions. */
  tier: 'urgent' | 'elevated';
  status: CaseStatus;
  /** When one of its submissions was first proven to come from the student; null while none is. */
  verified_at: Millis | null;
  /** When the submission that opened it was sent (the start of the alert and acknowledgement clocks). */
  first_submitted_at: Millis;
  opened_at: Millis;
  acknowledge_by: Millis;
  /** When the next escalation mail is due; null once acknowledged or resolved. */
  next_escalation_at: Millis | null;
  acknowledged_at: Millis | null;
  acknowledged_by: number | null;
  assigned_to: number | null;
  resolved_at: Millis | null;
  outcome: string | null;
  /** Opened by an unproven answer: a hash of the client address it came from, for its limits. */
  unproven_client: ColumnType<string | null, string | null | undefined, string | null>;
  /** Opened by an unproven urgent answer: whether its alert was mailed at once or digested, and when. */
  unproven_alert: ColumnType<'mail' | 'digest' | null, 'mail' | 'digest' | null | undefined>;
  unproven_alert_at: ColumnType<Millis | null, Millis | null | undefined>;
}

export interface CaseEventsTable {
  id: Generated<number>;
  case_id: number;
  kind: string;
  /** Null for the product's own events (opening, escalation). */
  actor_user_id: number | null;
  actor_name: string | null;
  submission_id: number | null;
  /** JSON: the note's text, the outcome, the assignee; staff-only. */
  detail: string | null;
  at: Millis;
}

export interface CaseMailsTable {
  case_id: number;
  mail_id: number;
  kind: 'alert' | 'escalation';
}

/** Each running instance's latest readiness write: proof that it can write, not a registry. */
export interface InstanceHeartbeatsTable {
  instance_id: string;
  beat_at: Millis;
}

export interface Database {
  institutions: InstitutionsTable;
  institution_domains: InstitutionDomainsTable;
  users: UsersTable;
  sessions: SessionsTable;
  limit_counters: LimitCountersTable;
  stream_slots: StreamSlotsTable;
  survey_templates: SurveyTemplatesTable;
  active_templates: ActiveTemplatesTable;
  questions: QuestionsTable;
  respondents: RespondentsTable;
  submissions: SubmissionsTable;
  answers: AnswersTable;
  instrument_results: InstrumentResultsTable;
  drafts: DraftsTable;
  contact_requests: ContactRequestsTable;
  dashboard_totals: DashboardTotalsTable;
  dashboard_months: DashboardMonthsTable;
  dashboard_students: DashboardStudentsTable;
  dashboard_student_months: DashboardStudentMonthsTable;
  dashboard_latest_days: DashboardLatestDaysTable;
  mail_outbox: MailOutboxTable;
  verification_codes: VerificationCodesTable;
  address_proofs: AddressProofsTable;
  pending_registrations: PendingRegistrationsTable;
  jobs: JobsTable;
  audit_log: AuditLogTable;
  staff_invitations: StaffInvitationsTable;
  cases: CasesTable;
  case_events: CaseEventsTable;
  case_mails: CaseMailsTable;
  roster_students: RosterStudentsTable;
  campaigns: CampaignsTable;
  campaign_invitations: CampaignInvitationsTable;
  totp_credentials: TotpCredentialsTable;
  recovery_codes: RecoveryCodesTable;
  passkeys: PasskeysTable;
  passkey_challenges: PasskeyChallengesTable;
  sso_settings: SsoSettingsTable;
  sso_connection_tests: SsoConnectionTestsTable;
  sso_attempts: SsoAttemptsTable;
  sso_identities: SsoIdentitiesTable;
  sso_link_grants: SsoLinkGrantsTable;
  instance_heartbeats: InstanceHeartbeatsTable;
  password_resets: PasswordResetsTable;
  legal_holds: LegalHoldsTable;
  records_requests: RecordsRequestsTable;
  anonymous_submissions: AnonymousSubmissionsTable;
  anonymous_answers: AnonymousAnswersTable;
  question_translations: QuestionTranslationsTable;
  contact_offers: ContactOffersTable;
  case_contacts: CaseContactsTable;
}

/** An answer to an anonymous campaign: no student, respondent, invitation, address or time of day. */
export interface AnonymousSubmissionsTable {
  id: Generated<number>;
  institution_id: number;
  campaign_id: number;
  template_id: number | null;
  tier: SubmissionsTable['tier'];
  likert_mean: number | null;
  lexicon_version: string | null;
  /** Midnight (UTC) of the day it was sent. */
  sent_on: Millis;
  /** anonymousRetryKey of the link and the tab's submission id, when the tab sent one. */
  retry_key: string | null;
}

export interface AnonymousAnswersTable {
  id: Generated<number>;
  submission_id: number;
  question_id: number | null;
  question_text: string;
  /** 'likert', 'text', or 'instrument' (the block's item answers as JSON in value). */
  question_type: string;
  category: string | null;
  value: string;
  /** As answers.language. */
  language: Generated<string>;
}

/** The once-only offer of a counsellor to the tab that sent an anonymous answer; by its hash. */
export interface ContactOffersTable {
  token_hash: string;
  institution_id: number;
  submission_id: number;
  tier: SubmissionsTable['tier'];
  expires_at: Millis;
}

/** What a student chose to share when asking to be contacted from an anonymous campaign. */
export interface CaseContactsTable {
  id: Generated<number>;
  case_id: number;
  name: string | null;
  email: string | null;
  phone: string | null;
  tier: SubmissionsTable['tier'];
  /** JSON [{question, answer}] when the student chose to share their answers. */
  answers: string | null;
  asked_at: Millis;
}

/** One student of an institution's roster, by address (design section 10). */
export interface RosterStudentsTable {
  id: Generated<number>;
  institution_id: number;
  email: string;
  name: string;
  group_name: string | null;
  last_invited_at: Millis | null;
  /** When the student was marked as having left; null while on the roster. */
  left_at: Millis | null;
  created_at: Millis;
  updated_at: Millis;
}

/** A campaign: rounds of invitations to roster groups (design section 10). */
export interface CampaignsTable {
  id: Generated<number>;
  institution_id: number;
  template_id: number;
  /** JSON array of roster group names. */
  groups: string;
  /** 1: every student of the roster, whatever the groups; 0 otherwise. */
  all_students: number;
  /** 1: also the students with no group. */
  no_group: number;
  /** 1: the first round went out at creation rather than at the weekly slot. */
  send_now: number;
  day: Weekday;
  minute_of_day: number;
  time_zone: string;
  /** 1 or 0 (SQLite has no booleans). */
  recurring: number;
  reminder_after_days: number;
  status: CampaignStatus;
  /** Rounds sent so far; the current round's number. */
  rounds: Generated<number>;
  /** When the next round goes out; null when none will. */
  next_run_at: Millis | null;
  /** When the current round went out, and when its links stop working (the next round's time). */
  round_started_at: Millis | null;
  round_expires_at: Millis | null;
  created_by: number | null;
  created_at: Millis;
  /** 1: its answers are stored apart, with nothing that names the student (design section 14). */
  anonymous: number;
}

/** One student invited in one round of a campaign: at most one row each (campaign, round, student). */
export interface CampaignInvitationsTable {
  id: Generated<number>;
  campaign_id: number;
  round: number;
  student_id: number;
  /** SHA-256 of the link's token: the link itself is never stored. */
  token_hash: string;
  invited_at: Millis;
  expires_at: Millis;
  answered_at: Millis | null;
  reminders: Generated<number>;
  last_reminded_at: Millis | null;
}

export type NewUser = Insertable<UsersTable>;

/** A student whose data no purge or erasure touches until an admin lifts the hold. */
export interface LegalHoldsTable {
  id: Generated<number>;
  institution_id: number;
  email: string;
  reason: string;
  placed_by: number | null;
  placed_at: Millis;
}

/** A student's request for their records, due 45 days after it was opened (FERPA). */
export interface RecordsRequestsTable {
  id: Generated<number>;
  institution_id: number;
  email: string;
  note: string | null;
  opened_by: number | null;
  opened_at: Millis;
  due_at: Millis;
  fulfilled_at: Millis | null;
  fulfilled_by: number | null;
}

import type { Generated, Insertable } from 'kysely';
import type { RiskTier } from '../../common/risk/tiers';
import type { QuestionCategory, QuestionType } from '../../common/schemas/templates';

/** Timestamps are epoch milliseconds in a bigint column on both databases. */
type Millis = number;

export type Role = 'student' | 'institution_admin' | 'superuser';

export interface InstitutionsTable {
  id: Generated<number>;
  name: string;
  /** JSON array of crisis resources; null means the product defaults. */
  crisis_resources: string | null;
  created_at: Millis;
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
}

export interface SessionsTable {
  /** SHA-256 of the cookie value: a stolen database does not yield live sessions. */
  id_hash: string;
  user_id: number;
  created_at: Millis;
  last_seen_at: Millis;
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
  question_text: string;
  question_type: QuestionType;
  category: QuestionCategory;
  /** JSON object { "1".."5": label } or null. */
  answer_choices: string | null;
  position: number;
  created_at: Millis;
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
}

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
}

export type NewUser = Insertable<UsersTable>;

import { z } from 'zod/mini';
import { Email } from '../../../common/schemas/common';
import {
  DEFAULT_ELEVATED_ACK_MINUTES,
  DEFAULT_URGENT_ACK_MINUTES,
  hoursToMinutes,
  type InstitutionSettings,
  type InstitutionSettingsResponse,
} from '../../../common/schemas/settings';
import { smallGroupThresholdOf } from '../../../common/small-groups';
import { isTimeZone } from '../../../common/time-zones';
import type { Executor } from '../../db/executor';
import { parseStoredJson } from '../../db/stored-json';
import { type AuditActor, recordAudit } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { supportedLanguages } from '../../lib/languages';
import {
  type OwnCrisisResources,
  readOwnCrisisResources,
  storedOwnCrisisResources,
} from './crisis-resources';
import * as queries from './queries';

/** What the follow-up of flagged submissions runs on, read once per use. */
export interface FollowUpSettings {
  institutionId: number;
  institutionName: string;
  alertEmails: string[];
  escalationEmails: string[];
  urgentAckMinutes: number;
  elevatedAckMinutes: number;
  timeZone: string;
  /** The institution's own, shown with the always-open lines. */
  crisisResources: OwnCrisisResources;
  smallGroupThreshold: number;
}

const StoredEmails = z.array(Email);

const INSTITUTION_NOT_FOUND = 'Institution not found';

/**
 * The institution's follow-up settings. A stored value that no longer reads (a broken manual
 * edit) falls back to the default rather than failing an alert: no contacts, the default windows,
 * UTC.
 */
export async function readFollowUpSettings(db: Executor, institutionId: number): Promise<FollowUpSettings> {
  const row = await queries.institutionSettingsRow(db, institutionId);
  if (!row) throw new AppError('NOT_FOUND', INSTITUTION_NOT_FOUND);
  return {
    institutionId: row.id,
    institutionName: row.name,
    alertEmails: parseStoredJson(StoredEmails, row.alert_emails) ?? [],
    escalationEmails: parseStoredJson(StoredEmails, row.escalation_emails) ?? [],
    urgentAckMinutes: row.urgent_ack_minutes > 0 ? row.urgent_ack_minutes : DEFAULT_URGENT_ACK_MINUTES,
    elevatedAckMinutes:
      row.elevated_ack_minutes > 0 ? row.elevated_ack_minutes : DEFAULT_ELEVATED_ACK_MINUTES,
    timeZone: isTimeZone(row.time_zone) ? row.time_zone : 'UTC',
    crisisResources: readOwnCrisisResources(row.crisis_resources),
    smallGroupThreshold: smallGroupThresholdOf(row.small_group_threshold),
  };
}

/**
 * The clock on which the institution's people read the times their mails state: its own zone,
 * or UTC for a stored name that no longer reads (or an institution that is gone).
 */
export async function institutionTimeZone(db: Executor, institutionId: number): Promise<string> {
  const zone = (await queries.institutionTimeZoneRow(db, institutionId))?.time_zone;
  return zone !== undefined && isTimeZone(zone) ? zone : 'UTC';
}

function toResponse(settings: FollowUpSettings): InstitutionSettingsResponse {
  return {
    success: true,
    alert_emails: settings.alertEmails,
    escalation_emails: settings.escalationEmails,
    urgent_ack_minutes: settings.urgentAckMinutes,
    elevated_ack_hours: settings.elevatedAckMinutes / 60,
    time_zone: settings.timeZone,
    crisis_resources: settings.crisisResources.resources,
    crisis_resources_first: settings.crisisResources.first,
    small_group_threshold: settings.smallGroupThreshold,
  };
}

export async function getInstitutionSettings(options: {
  db: Executor;
  institutionId: number;
  actor: AuditActor;
}): Promise<InstitutionSettingsResponse> {
  const settings = await readFollowUpSettings(options.db, options.institutionId);
  await recordAudit(options.db, options.actor, {
    action: 'settings.read',
    subject: { type: 'institution', id: options.institutionId },
  });
  return toResponse(settings);
}

export const CRISIS_LANGUAGE_UNKNOWN = (name: string) =>
  `${name}: choose one of the product's languages, or none to show it in every language`;

/**
 * Replaces the settings. Deadlines of cases already open stay as they were set at opening; the
 * new windows apply to cases opened from now on.
 */
export async function updateInstitutionSettings(options: {
  db: Executor;
  institutionId: number;
  actor: AuditActor;
  settings: InstitutionSettings;
}): Promise<InstitutionSettingsResponse> {
  const { db, institutionId, settings } = options;
  const unknown = settings.crisis_resources.find(
    (resource) => resource.language !== undefined && !supportedLanguages().includes(resource.language),
  );
  if (unknown) throw new AppError('BAD_REQUEST', CRISIS_LANGUAGE_UNKNOWN(unknown.name));
  const before = await readFollowUpSettings(db, institutionId);
  const elevatedAckMinutes = hoursToMinutes(settings.elevated_ack_hours);
  const crisisResources = {
    resources: settings.crisis_resources,
    first: settings.crisis_resources_first ?? false,
  };
  const smallGroupThreshold = settings.small_group_threshold ?? before.smallGroupThreshold;
  await queries.updateInstitutionSettings(db, institutionId, {
    alert_emails: JSON.stringify(settings.alert_emails),
    escalation_emails: JSON.stringify(settings.escalation_emails),
    urgent_ack_minutes: settings.urgent_ack_minutes,
    elevated_ack_minutes: elevatedAckMinutes,
    time_zone: settings.time_zone,
    crisis_resources: storedOwnCrisisResources(crisisResources),
    small_group_threshold: smallGroupThreshold,
  });
  const changed = Object.entries({
    alert_emails: before.alertEmails.join() !== settings.alert_emails.join(),
    escalation_emails: before.escalationEmails.join() !== settings.escalation_emails.join(),
    urgent_ack_minutes: before.urgentAckMinutes !== settings.urgent_ack_minutes,
    elevated_ack_hours: before.elevatedAckMinutes !== elevatedAckMinutes,
    time_zone: before.timeZone !== settings.time_zone,
    crisis_resources:
      JSON.stringify(before.crisisResources.resources) !== JSON.stringify(crisisResources.resources),
    crisis_resources_first: before.crisisResources.first !== crisisResources.first,
    small_group_threshold: before.smallGroupThreshold !== smallGroupThreshold,
  })
    .filter(([, isChanged]) => isChanged)
    .map(([field]) => field);
  await recordAudit(db, options.actor, {
    action: 'settings.update',
    subject: { type: 'institution', id: institutionId },
    detail: { changed },
  });
  return toResponse(await readFollowUpSettings(db, institutionId));
}

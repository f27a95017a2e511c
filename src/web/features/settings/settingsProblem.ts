import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { InstitutionSettings } from '../../../common/schemas/settings';
import { i18n } from '../../app/i18n';

/** The settings form's labels, by the field names the API uses. */
export const SETTINGS_FIELD_LABELS = {
  alert_emails: msg`Alert addresses`,
  escalation_emails: msg`Escalation addresses`,
  urgent_ack_minutes: msg`Urgent: acknowledge within (minutes)`,
  elevated_ack_hours: msg`Elevated: acknowledge within (hours)`,
  time_zone: msg`Time zone`,
  crisis_resources: msg`Crisis resources`,
  small_group_threshold: msg`Smallest group shown to viewers (students)`,
} as const satisfies Record<string, MessageDescriptor>;

const RESOURCE_FIELD_LABELS: Record<string, MessageDescriptor> = {
  name: msg`Name`,
  description: msg`Description`,
  hours: msg`Hours`,
  phone: msg`Phone`,
  sms: msg`Text number`,
  url: msg`Web address`,
  language: msg`Shown to students reading`,
};

export interface SettingsProblem {
  /** The form control's name (`alert_emails`, `crisis_resources.0.phone`), to focus and mark it. */
  field: string | null;
  /** The message, starting with the field's label as the form shows it. */
  message: string;
}

/** A rule's message without the API's field name it may start with ("urgent_ack_minutes must ..."). */
function withoutKey(message: string, key: string): string {
  return message.startsWith(`${key} `) ? message.slice(key.length + 1) : message;
}

/** The label and control name of a place in the settings, as the form names it. */
function describe(
  path: readonly PropertyKey[],
  message: string,
  items: { alert: string[]; escalation: string[] },
) {
  const [key, index, part] = path;
  if (key === 'crisis_resources' && typeof index === 'number') {
    const descriptor = typeof part === 'string' ? RESOURCE_FIELD_LABELS[part] : undefined;
    const label = descriptor ? i18n._(descriptor) : undefined;
    // "Name is required" names its field already.
    const named = !label || message.startsWith(label);
    const number = index + 1;
    return {
      label: named
        ? i18n._(msg`Crisis resource ${number}`)
        : i18n._(msg`Crisis resource ${number}, ${label}`),
      field: `crisis_resources.${index}.${typeof part === 'string' ? part : 'name'}`,
    };
  }
  if (typeof key === 'string' && key in SETTINGS_FIELD_LABELS) {
    const label = i18n._(SETTINGS_FIELD_LABELS[key as keyof typeof SETTINGS_FIELD_LABELS]);
    const list = key === 'alert_emails' ? items.alert : key === 'escalation_emails' ? items.escalation : null;
    const entry = list && typeof index === 'number' ? list[index] : undefined;
    return { label: entry === undefined ? label : `${label} (${entry})`, field: key };
  }
  return { label: null, field: null };
}

/**
 * What is wrong with the settings as the form would send them, checked with the server's own
 * rules, named by the form's labels; null when they would be accepted.
 */
export function settingsProblem(body: InstitutionSettings): SettingsProblem | null {
  const parsed = InstitutionSettings.safeParse(body);
  if (parsed.success) return null;
  const [issue] = parsed.error.issues;
  if (!issue) return null;
  const key = typeof issue.path[0] === 'string' ? issue.path[0] : '';
  const text = withoutKey(issue.message, key);
  const { label, field } = describe(issue.path, text, {
    alert: body.alert_emails,
    escalation: body.escalation_emails,
  });
  return { field, message: label ? `${label}: ${text}` : text };
}

/** A refusal from the server, its field named by the form's label where the message names its key. */
export function serverProblem(message: string): SettingsProblem {
  for (const [key, label] of Object.entries(SETTINGS_FIELD_LABELS)) {
    if (message.startsWith(`${key} `) || message.startsWith(`${key}.`) || message.startsWith(`${key}:`))
      return {
        field: key,
        message: `${i18n._(label)}: ${withoutKey(message, key).replace(/^[.:\d\s]+/, '')}`,
      };
  }
  return { field: null, message };
}

import type { CampaignRequest } from '../../src/common/schemas/campaigns';

/**
 * A one-off campaign of the template to the roster groups, Mondays at 9:00 AM with a reminder
 * after two days; a test overrides what it is about (sending now, recurring, the reminder).
 */
export function campaignRequest(
  templateId: number,
  groups: string[],
  overrides: Partial<CampaignRequest> = {},
): Required<CampaignRequest> {
  return {
    template_id: templateId,
    groups,
    all_students: false,
    no_group: false,
    day: 'Monday',
    hour: 9,
    minute: 0,
    ampm: 'AM',
    recurring: false,
    send_now: false,
    anonymous: false,
    reminder_after_days: 2,
    ...overrides,
  };
}

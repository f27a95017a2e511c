import {
  AnonymousResultsResponse,
  CampaignListResponse,
  CampaignRequest,
  CampaignResponse,
  NOT_ANSWERED_MAX_LISTED,
  NotAnsweredResponse,
} from '../schemas/campaigns';
import { endpoint } from './endpoint';
import { IdParams } from './shared';

/** Campaigns and what staff read of them (design sections 10 and 12). */

const tags = ['campaigns'];

export const listCampaigns = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/campaigns/',
  summary: "The institution's campaigns, newest first, with invited, answered and reminded counts",
  tags,
  response: { status: 200, schema: CampaignListResponse },
  errors: [400, 401, 403, 404, 409, 429],
  access: { staff: 'schedule' },
});

export const createCampaign = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/campaigns/',
  summary: 'Create a campaign for roster groups',
  description:
    'Each student of the groups gets one mail with a personal link per round: now with send_now, else at the day and time (in the institution time zone), weekly when recurring. Reminders go to those who have not answered after reminder_after_days (0: none), at most 2 per round.',
  tags,
  body: CampaignRequest,
  response: { status: 201, schema: CampaignResponse },
  errors: [400, 401, 403, 404, 409, 429],
  access: { staff: 'schedule' },
});

export const listNotAnswered = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/campaigns/:id/not-answered/',
  summary: "Who of the campaign's current round has not answered yet",
  description: `Counts for every staff role; the students' names and addresses (the first ${NOT_ANSWERED_MAX_LISTED} by name) only for roles that may see them, and that read is audited.`,
  tags: ['campaigns'],
  params: IdParams,
  response: { status: 200, schema: NotAnsweredResponse },
  errors: [400, 401, 403, 404, 409, 429],
  access: { staff: 'dashboard' },
});

export const getCampaignResults = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/campaigns/:id/results/',
  summary: "An anonymous campaign's results, as figures over enough students only",
  description:
    'For every staff role alike: how many answered, how many answers each screening tier took in, the mean of each 1-5 question and how many answers of each instrument block fell in each band, each shown as "Fewer than N" under the small-group rule. No single answer, no written answer. A campaign that is not anonymous has none (404): its answers are on the dashboard.',
  tags: ['campaigns'],
  params: IdParams,
  response: { status: 200, schema: AnonymousResultsResponse },
  errors: [400, 401, 403, 404, 409, 429],
  access: { staff: 'dashboard' },
});

export const pauseCampaign = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/campaigns/:id/pause/',
  summary: 'Pause a campaign',
  tags,
  params: IdParams,
  response: { status: 200, schema: CampaignResponse },
  errors: [400, 401, 403, 404, 409, 429],
  access: { staff: 'schedule' },
});

export const resumeCampaign = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/campaigns/:id/resume/',
  summary: 'Resume a campaign',
  tags,
  params: IdParams,
  response: { status: 200, schema: CampaignResponse },
  errors: [400, 401, 403, 404, 409, 429],
  access: { staff: 'schedule' },
});

export const cancelCampaign = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/campaigns/:id/cancel/',
  summary: 'Cancel a campaign',
  tags,
  params: IdParams,
  response: { status: 200, schema: CampaignResponse },
  errors: [400, 401, 403, 404, 409, 429],
  access: { staff: 'schedule' },
});

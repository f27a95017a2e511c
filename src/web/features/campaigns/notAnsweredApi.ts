import { listNotAnswered } from '../../../common/endpoints/campaigns';
import { api } from '../../api';

export const notAnsweredQueryKey = (campaignId: number) => ['campaigns', campaignId, 'not-answered'] as const;

export const notAnsweredPath = (campaignId: number) => `/admin/campaigns/${campaignId}/not-answered/`;

export function fetchNotAnswered(campaignId: number) {
  return api.call(listNotAnswered, { params: { id: campaignId } });
}

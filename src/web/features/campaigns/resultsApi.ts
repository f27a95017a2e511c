import { getCampaignResults } from '../../../common/endpoints/campaigns';
import { api } from '../../api';

export const resultsQueryKey = (campaignId: number) => ['campaigns', campaignId, 'results'] as const;

export const resultsPath = (campaignId: number) => `/admin/campaigns/${campaignId}/results/`;

export function fetchResults(campaignId: number) {
  return api.call(getCampaignResults, { params: { id: campaignId } });
}

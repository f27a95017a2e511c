import { getCampaigns, postCampaigns } from '../../../common/endpoints/campaigns';
import { type CampaignRequest, CampaignResponse } from '../../../common/schemas/campaigns';
import { api } from '../../api';

export const CAMPAIGNS_QUERY_KEY = ['campaigns'] as const;

export function createCampaign(request: CampaignRequest) {
  return api.call(postCampaigns, { body: request });
}

export async function fetchCampaigns() {
  const { campaigns } = await api.call(getCampaigns);
  return campaigns;
}

export function changeCampaign(campaignId: number, change: 'pause' | 'resume' | 'cancel') {
  return api.post(`/api/campaigns/${campaignId}/${change}/`, CampaignResponse);
}

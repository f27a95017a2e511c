import {
  CampaignListResponse,
  type CampaignRequest,
  CampaignResponse,
} from '../../../common/schemas/campaigns';
import { api } from '../../api';

export const CAMPAIGNS_QUERY_KEY = ['campaigns'] as const;

export function createCampaign(request: CampaignRequest) {
  return api.post('/api/campaigns/', CampaignResponse, request);
}

export async function fetchCampaigns() {
  const { campaigns } = await api.get('/api/campaigns/', CampaignListResponse);
  return campaigns;
}

export function changeCampaign(campaignId: number, change: 'pause' | 'resume' | 'cancel') {
  return api.post(`/api/campaigns/${campaignId}/${change}/`, CampaignResponse);
}

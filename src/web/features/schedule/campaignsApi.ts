import * as endpoints from '../../../common/endpoints/campaigns';
import type { CampaignRequest } from '../../../common/schemas/campaigns';
import { api } from '../../api';

export const CAMPAIGNS_QUERY_KEY = ['campaigns'] as const;

export function createCampaign(request: CampaignRequest) {
  return api.call(endpoints.createCampaign, { body: request });
}

export async function fetchCampaigns() {
  const { campaigns } = await api.call(endpoints.listCampaigns);
  return campaigns;
}

const CHANGES = {
  pause: endpoints.pauseCampaign,
  resume: endpoints.resumeCampaign,
  cancel: endpoints.cancelCampaign,
} as const;

export function changeCampaign(campaignId: number, change: keyof typeof CHANGES) {
  return api.call(CHANGES[change], { params: { id: campaignId } });
}

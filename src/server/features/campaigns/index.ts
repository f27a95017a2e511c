// The front door of campaigns: all that the rest of the server may use of it (test/architecture).
export { contactOfferHash, dayOf } from './anonymous';
export { campaignRoutes } from './routes';
export { createCampaign } from './service';

/**
 * The product's name as a deployment may set it (BRAND_NAME): its default, and the longest the
 * server accepts and the web app shows, so the two cannot disagree on either.
 */
export const DEFAULT_BRAND_NAME = 'Wellspring';
export const BRAND_NAME_MAX_LENGTH = 60;

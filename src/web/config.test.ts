import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_BRAND_NAME } from '../common/brand';
import { requestQuote } from '../common/endpoints/contact';
import { appConfig, applyAppConfig, productName } from './config';

describe('the deployment settings', () => {
  afterEach(() => applyAppConfig({}));

  it('are taken as the server wrote them, the brand name trimmed', () => {
    applyAppConfig({
      brandName: '  Northfield ',
      demoVideoUrl: 'https://video.example/demo',
      contactFormUrl: '/contact/',
      analyticsScriptUrl: 'http://stats.example/a.js',
      publicUrl: 'https://survey.northfield.edu',
      other: 'ignored',
    });
    expect(appConfig).toEqual({
      brandName: 'Northfield',
      demoVideoUrl: 'https://video.example/demo',
      contactFormUrl: '/contact/',
      analyticsScriptUrl: 'http://stats.example/a.js',
      publicUrl: 'https://survey.northfield.edu',
    });
    expect(productName).toBe('Northfield Health');
  });

  it('fall back to their defaults each on its own', () => {
    applyAppConfig({
      brandName: '   ',
      demoVideoUrl: 'javascript:alert(1)',
      contactFormUrl: 42,
      analyticsScriptUrl: 'data:text/javascript,1',
      publicUrl: 'https://survey.northfield.edu',
    });
    expect(appConfig).toEqual({
      brandName: DEFAULT_BRAND_NAME,
      demoVideoUrl: null,
      contactFormUrl: requestQuote.path,
      analyticsScriptUrl: null,
      publicUrl: 'https://survey.northfield.edu',
    });
  });

  it('are all defaults for something that is not an object, or a brand name too long', () => {
    applyAppConfig('not settings');
    expect(appConfig.brandName).toBe(DEFAULT_BRAND_NAME);
    applyAppConfig({ brandName: 'x'.repeat(500) });
    expect(appConfig.brandName).toBe(DEFAULT_BRAND_NAME);
    expect(appConfig.contactFormUrl).toBe(requestQuote.path);
  });
});

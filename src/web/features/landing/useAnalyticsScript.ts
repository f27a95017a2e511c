import { useEffect } from 'react';
import { appConfig } from '../../config';

const SCRIPT_ID = 'analytics-script';

/**
 * Loads the marketing page's analytics script, but only when a deployment configures one:
 * it is off by default so that no student's visit is reported to a third party.
 */
export function useAnalyticsScript() {
  useEffect(() => {
    const src = appConfig.analyticsScriptUrl;
    if (!src || document.getElementById(SCRIPT_ID)) return;
    const script = document.createElement('script');
    script.id = SCRIPT_ID;
    script.async = true;
    script.src = src;
    document.head.append(script);
  }, []);
}

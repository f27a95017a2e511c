import type { Migration } from 'kysely';
import * as accounts from './001_accounts';
import * as surveys from './002_surveys';
import * as dashboard from './003_dashboard';
import * as sharedLimits from './004_shared_limits';
import * as provenIdentity from './005_proven_identity';
import * as screeningLexiconVersion from './006_screening_lexicon_version';
import * as jobsAndAudit from './007_jobs_and_audit';
import * as cases from './008_cases';
import * as roster from './009_roster';
import * as staffSignIn from './010_staff_sign_in';
import * as staffTeam from './011_staff_team';
import * as passkeys from './012_passkeys';
import * as campaigns from './013_campaigns';
import * as singleSignOn from './014_single_sign_on';
import * as signInIntegrity from './015_sign_in_integrity';
import * as unprovenAnswers from './016_unproven_answers';
import * as factorChanges from './017_factor_changes';
import * as ssoLinkGrants from './019_sso_link_grants';
import * as instanceHeartbeats from './020_instance_heartbeats';
import * as instrumentResults from './021_instrument_results';
import * as passwordResets from './023_password_resets';
import * as campaignAudiences from './025_campaign_audiences';
import * as smallGroupThreshold from './029_small_group_threshold';
import * as retention from './030_retention';
import * as recordsRequests from './031_records_requests';
import * as testedSsoAndAppReplacement from './032_tested_sso_and_app_replacement';
import * as anonymousCampaigns from './033_anonymous_campaigns';
import * as anonymousResends from './034_anonymous_resends';
import * as questionTranslations from './035_question_translations';
import * as languages from './036_languages';

/**
 * Every migration, in order. Listed statically (not read from disk) so they run the same under
 * tsx, in tests and from a bundle. Forward-only: never edit one that has shipped; add a new file.
 */
export const migrations: Record<string, Migration> = {
  '001_accounts': accounts,
  '002_surveys': surveys,
  '003_dashboard': dashboard,
  '004_shared_limits': sharedLimits,
  '005_proven_identity': provenIdentity,
  '006_screening_lexicon_version': screeningLexiconVersion,
  '007_jobs_and_audit': jobsAndAudit,
  '008_cases': cases,
  '009_roster': roster,
  '010_staff_sign_in': staffSignIn,
  '011_staff_team': staffTeam,
  '012_passkeys': passkeys,
  '013_campaigns': campaigns,
  '014_single_sign_on': singleSignOn,
  '015_sign_in_integrity': signInIntegrity,
  '016_unproven_answers': unprovenAnswers,
  '017_factor_changes': factorChanges,
  '019_sso_link_grants': ssoLinkGrants,
  '020_instance_heartbeats': instanceHeartbeats,
  '021_instrument_results': instrumentResults,
  '023_password_resets': passwordResets,
  '025_campaign_audiences': campaignAudiences,
  '029_small_group_threshold': smallGroupThreshold,
  '030_retention': retention,
  '031_records_requests': recordsRequests,
  '032_tested_sso_and_app_replacement': testedSsoAndAppReplacement,
  '033_anonymous_campaigns': anonymousCampaigns,
  '034_anonymous_resends': anonymousResends,
  '035_question_translations': questionTranslations,
  '036_languages': languages,
};

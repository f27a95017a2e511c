import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Campaign } from '../../../common/schemas/campaigns';
import { errorMessage } from '../../api';
import { i18n } from '../../app/i18n';
import { Button, ButtonLink } from '../../ui/Button';
import { type Confirmation, ConfirmDialog } from '../../ui/ConfirmDialog';
import { Flash, useFlash } from '../../ui/Flash';
import { LoadError } from '../../ui/LoadError';
import { Card, Lead, Page } from '../../ui/Page';
import { tableClassName } from '../../ui/Table';
import { AdminOnly, LoadingStatus, useLoginRedirect } from '../admin/AdminOnly';
import styles from '../roster/Roster.module.css';
import { CAMPAIGNS_QUERY_KEY, changeCampaign, fetchCampaigns } from '../schedule/campaignsApi';
import { clockTime, weekdayName } from '../schedule/clock';
import { isUnauthenticated } from '../templates/templatesApi';
import { useZonedFormat, ZonedTime } from '../time/ZonedTime';
import { notAnsweredPath } from './notAnsweredApi';
import { resultsPath } from './resultsApi';

/** The roster's table look: five columns and more do not fit a phone, so each row is a card there. */
const CAMPAIGN_TABLE = tableClassName({ cardsBelow: '40rem', labels: 'above' }, styles.table);

const TITLE = msg`Campaigns`;

const STATUS_TEXT: Record<Campaign['status'], MessageDescriptor> = {
  active: msg`Active`,
  paused: msg`Paused`,
  finished: msg`Sent`,
  cancelled: msg`Cancelled`,
};

/** Whom a campaign invites, in words, in the page's language (the groups keep the roster's names). */
export function audienceText(campaign: Pick<Campaign, 'all_students' | 'groups' | 'no_group'>): string {
  if (campaign.all_students) return i18n._(msg`All students`);
  return [...campaign.groups, ...(campaign.no_group ? [i18n._(msg`Students with no group`)] : [])].join(', ');
}

/** A one-off campaign sent at creation follows no weekly slot: it says when it went. */
function scheduleText(campaign: Campaign, formatTime: (at: string) => string): string {
  if (campaign.send_now && !campaign.recurring) {
    const sentAt = formatTime(campaign.created_at);
    return i18n._(msg`Once, sent ${sentAt}`);
  }
  const day = weekdayName(campaign.day, i18n.locale);
  const time = clockTime(campaign.time, i18n.locale);
  const zone = campaign.time_zone;
  if (campaign.send_now) return i18n._(msg`Sent at once, then every ${day} at ${time} (${zone})`);
  if (campaign.recurring) return i18n._(msg`Every ${day} at ${time} (${zone})`);
  return i18n._(msg`Once, ${day} at ${time} (${zone})`);
}

export function CampaignsScreen() {
  const { t, i18n } = useLingui();
  return (
    <AdminOnly ability="schedule" title={i18n._(TITLE)} loadingText={t`Loading campaigns...`}>
      <CampaignList />
    </AdminOnly>
  );
}

function CampaignList() {
  const { t, i18n } = useLingui();
  const queryClient = useQueryClient();
  const campaigns = useQuery({ queryKey: CAMPAIGNS_QUERY_KEY, queryFn: fetchCampaigns });
  useLoginRedirect(isUnauthenticated(campaigns.error));
  const { flash, showFlash } = useFlash();
  const [working, setWorking] = useState<number | null>(null);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const formatTime = useZonedFormat();
  const confirmCancel = (campaign: Campaign) => {
    const audience = audienceText(campaign);
    const template = campaign.template_name;
    setConfirmation({
      title: t`Cancel the campaign for ${audience}?`,
      text: t`${template} to ${audience}: no more rounds or reminders are sent, and the links already mailed stop working. This cannot be undone.`,
      confirmLabel: t`Cancel campaign`,
      confirmVariant: 'danger',
      onConfirm: () => change.mutate({ id: campaign.id, action: 'cancel' }),
    });
  };
  const change = useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'pause' | 'resume' | 'cancel' }) =>
      changeCampaign(id, action),
    onMutate: ({ id }) => setWorking(id),
    onSuccess: (answer) => showFlash(answer.message),
    onError: (error) => showFlash(errorMessage(error, t`The campaign could not be changed.`), 'error'),
    onSettled: () => {
      setWorking(null);
      void queryClient.invalidateQueries({ queryKey: CAMPAIGNS_QUERY_KEY });
    },
  });

  return (
    <Page>
      <div className={styles.header}>
        <h1>{i18n._(TITLE)}</h1>
        <div className={styles.actions}>
          <ButtonLink variant="ghost" to="/dashboard/">
            <Trans>Back to Dashboard</Trans>
          </ButtonLink>
          <ButtonLink variant="secondary" to="/schedule-survey/">
            <Trans>Schedule Survey</Trans>
          </ButtonLink>
        </div>
      </div>
      <Lead>
        <Trans>Invitations sent to roster groups, who answered, and who was reminded.</Trans>
      </Lead>
      <Flash flash={flash} />
      <Card className={styles.card}>
        {campaigns.isPending && (
          <LoadingStatus>
            <Trans>Loading campaigns...</Trans>
          </LoadingStatus>
        )}
        {campaigns.isError && !isUnauthenticated(campaigns.error) && (
          <LoadError
            message={errorMessage(campaigns.error, t`The campaigns could not be loaded.`)}
            onRetry={() => void campaigns.refetch()}
          />
        )}
        {campaigns.data?.length === 0 && (
          <p className={styles.empty}>
            <Trans>No campaigns yet. Schedule one for a roster group.</Trans>
          </p>
        )}
        {campaigns.data && campaigns.data.length > 0 && (
          <table className={CAMPAIGN_TABLE}>
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Students</Trans>
                </th>
                <th scope="col">
                  <Trans>Template</Trans>
                </th>
                <th scope="col">
                  <Trans>Schedule</Trans>
                </th>
                <th scope="col">
                  <Trans>Status</Trans>
                </th>
                <th scope="col">
                  <Trans>Last round</Trans>
                </th>
                <th scope="col">
                  <Trans>Next round</Trans>
                </th>
                <th scope="col">
                  <Trans>Invited</Trans>
                </th>
                <th scope="col">
                  <Trans>Answered</Trans>
                </th>
                <th scope="col">
                  <Trans>Reminded</Trans>
                </th>
                <th scope="col">
                  <Trans>Actions</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {campaigns.data.map((campaign) => {
                const audience = audienceText(campaign);
                const template = campaign.template_name;
                return (
                  <tr key={campaign.id}>
                    <th scope="row" className={styles.wrap}>
                      {audience}
                    </th>
                    <td data-label={t`Template`}>
                      {campaign.anonymous ? t`${template} (anonymous)` : template}
                    </td>
                    <td data-label={t`Schedule`}>{scheduleText(campaign, formatTime)}</td>
                    <td data-label={t`Status`}>{i18n._(STATUS_TEXT[campaign.status])}</td>
                    <td data-label={t`Last round`}>
                      <ZonedTime at={campaign.last_run_at} fallback={t`None yet`} />
                    </td>
                    <td data-label={t`Next round`}>
                      <ZonedTime at={campaign.next_run_at} fallback={t`None`} />
                    </td>
                    <td data-label={t`Invited`}>{campaign.invited}</td>
                    <td data-label={t`Answered`}>{campaign.answered}</td>
                    <td data-label={t`Reminded`}>{campaign.reminded}</td>
                    <td data-label={t`Actions`}>
                      <div className={styles.actions}>
                        {campaign.rounds > 0 && (
                          <ButtonLink
                            size="small"
                            variant="secondary"
                            to={notAnsweredPath(campaign.id)}
                            aria-label={t`Who has not answered the campaign for ${audience}`}
                          >
                            <Trans>Not answered</Trans>
                          </ButtonLink>
                        )}
                        {campaign.anonymous && (
                          <ButtonLink
                            size="small"
                            variant="secondary"
                            to={resultsPath(campaign.id)}
                            aria-label={t`Results of the anonymous campaign for ${audience}`}
                          >
                            <Trans>Results</Trans>
                          </ButtonLink>
                        )}
                        {campaign.status === 'active' && (
                          <Button
                            size="small"
                            variant="secondary"
                            busy={working === campaign.id}
                            onClick={() => change.mutate({ id: campaign.id, action: 'pause' })}
                            aria-label={t`Pause the campaign for ${audience}`}
                          >
                            <Trans>Pause</Trans>
                          </Button>
                        )}
                        {campaign.status === 'paused' && (
                          <Button
                            size="small"
                            variant="secondary"
                            busy={working === campaign.id}
                            onClick={() => change.mutate({ id: campaign.id, action: 'resume' })}
                            aria-label={t`Resume the campaign for ${audience}`}
                          >
                            <Trans>Resume</Trans>
                          </Button>
                        )}
                        {campaign.status !== 'cancelled' && (
                          <Button
                            size="small"
                            variant="danger"
                            busy={working === campaign.id}
                            onClick={() => confirmCancel(campaign)}
                            aria-label={t`Cancel the campaign for ${audience}`}
                          >
                            <Trans>Cancel</Trans>
                          </Button>
                        )}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </Card>
      <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} />
    </Page>
  );
}

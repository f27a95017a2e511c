import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Campaign } from '../../../common/schemas/campaigns';
import { errorMessage } from '../../api';
import { Button, ButtonLink } from '../../ui/Button';
import { type Confirmation, ConfirmDialog } from '../../ui/ConfirmDialog';
import { Flash, useFlash } from '../../ui/Flash';
import { LoadError } from '../../ui/LoadError';
import { Card, Lead, Page } from '../../ui/Page';
import { tableClassName } from '../../ui/Table';
import { AdminOnly, LoadingStatus, useLoginRedirect } from '../admin/AdminOnly';
import styles from '../roster/Roster.module.css';
import { CAMPAIGNS_QUERY_KEY, changeCampaign, fetchCampaigns } from '../schedule/campaignsApi';
import { isUnauthenticated } from '../templates/templatesApi';
import { useZonedFormat, ZonedTime } from '../time/ZonedTime';
import { notAnsweredPath } from './notAnsweredApi';
import { resultsPath } from './resultsApi';

/** The roster's table look: five columns and more do not fit a phone, so each row is a card there. */
const CAMPAIGN_TABLE = tableClassName({ cardsBelow: '40rem', labels: 'above' }, styles.table);

const TITLE = 'Campaigns';

const STATUS_TEXT: Record<Campaign['status'], string> = {
  active: 'Active',
  paused: 'Paused',
  finished: 'Sent',
  cancelled: 'Cancelled',
};

/** Whom a campaign invites, in words. */
export function audienceText(campaign: Pick<Campaign, 'all_students' | 'groups' | 'no_group'>): string {
  if (campaign.all_students) return 'All students';
  return [...campaign.groups, ...(campaign.no_group ? ['Students with no group'] : [])].join(', ');
}

/** A one-off campaign sent at creation follows no weekly slot: it says when it went. */
function scheduleText(campaign: Campaign, formatTime: (at: string) => string): string {
  if (campaign.send_now && !campaign.recurring) return `Once, sent ${formatTime(campaign.created_at)}`;
  const first = campaign.send_now ? 'Sent at once, then every' : campaign.recurring ? 'Every' : 'Once,';
  return `${first} ${campaign.day} at ${campaign.time} (${campaign.time_zone})`;
}

export function CampaignsScreen() {
  return (
    <AdminOnly ability="schedule" title={TITLE} loadingText="Loading campaigns...">
      <CampaignList />
    </AdminOnly>
  );
}

function CampaignList() {
  const queryClient = useQueryClient();
  const campaigns = useQuery({ queryKey: CAMPAIGNS_QUERY_KEY, queryFn: fetchCampaigns });
  useLoginRedirect(isUnauthenticated(campaigns.error));
  const { flash, showFlash } = useFlash();
  const [working, setWorking] = useState<number | null>(null);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const formatTime = useZonedFormat();
  const confirmCancel = (campaign: Campaign) =>
    setConfirmation({
      title: `Cancel the campaign for ${audienceText(campaign)}?`,
      text: `${campaign.template_name} to ${audienceText(campaign)}: no more rounds or reminders are sent, and the links already mailed stop working. This cannot be undone.`,
      confirmLabel: 'Cancel campaign',
      confirmVariant: 'danger',
      onConfirm: () => change.mutate({ id: campaign.id, action: 'cancel' }),
    });
  const change = useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'pause' | 'resume' | 'cancel' }) =>
      changeCampaign(id, action),
    onMutate: ({ id }) => setWorking(id),
    onSuccess: (answer) => showFlash(answer.message),
    onError: (error) => showFlash(errorMessage(error, 'The campaign could not be changed.'), 'error'),
    onSettled: () => {
      setWorking(null);
      void queryClient.invalidateQueries({ queryKey: CAMPAIGNS_QUERY_KEY });
    },
  });

  return (
    <Page>
      <div className={styles.header}>
        <h1>{TITLE}</h1>
        <div className={styles.actions}>
          <ButtonLink variant="ghost" to="/dashboard/">
            Back to Dashboard
          </ButtonLink>
          <ButtonLink variant="secondary" to="/schedule-survey/">
            Schedule Survey
          </ButtonLink>
        </div>
      </div>
      <Lead>Invitations sent to roster groups, who answered, and who was reminded.</Lead>
      <Flash flash={flash} />
      <Card className={styles.card}>
        {campaigns.isPending && <LoadingStatus>Loading campaigns...</LoadingStatus>}
        {campaigns.isError && !isUnauthenticated(campaigns.error) && (
          <LoadError
            message={errorMessage(campaigns.error, 'The campaigns could not be loaded.')}
            onRetry={() => void campaigns.refetch()}
          />
        )}
        {campaigns.data?.length === 0 && (
          <p className={styles.empty}>No campaigns yet. Schedule one for a roster group.</p>
        )}
        {campaigns.data && campaigns.data.length > 0 && (
          <table className={CAMPAIGN_TABLE}>
            <thead>
              <tr>
                <th scope="col">Students</th>
                <th scope="col">Template</th>
                <th scope="col">Schedule</th>
                <th scope="col">Status</th>
                <th scope="col">Last round</th>
                <th scope="col">Next round</th>
                <th scope="col">Invited</th>
                <th scope="col">Answered</th>
                <th scope="col">Reminded</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {campaigns.data.map((campaign) => (
                <tr key={campaign.id}>
                  <th scope="row" className={styles.wrap}>
                    {audienceText(campaign)}
                  </th>
                  <td data-label="Template">
                    {campaign.template_name}
                    {campaign.anonymous ? ' (anonymous)' : ''}
                  </td>
                  <td data-label="Schedule">{scheduleText(campaign, formatTime)}</td>
                  <td data-label="Status">{STATUS_TEXT[campaign.status]}</td>
                  <td data-label="Last round">
                    <ZonedTime at={campaign.last_run_at} fallback="None yet" />
                  </td>
                  <td data-label="Next round">
                    <ZonedTime at={campaign.next_run_at} fallback="None" />
                  </td>
                  <td data-label="Invited">{campaign.invited}</td>
                  <td data-label="Answered">{campaign.answered}</td>
                  <td data-label="Reminded">{campaign.reminded}</td>
                  <td data-label="Actions">
                    <div className={styles.actions}>
                      {campaign.rounds > 0 && (
                        <ButtonLink
                          size="small"
                          variant="secondary"
                          to={notAnsweredPath(campaign.id)}
                          aria-label={`Who has not answered the campaign for ${audienceText(campaign)}`}
                        >
                          Not answered
                        </ButtonLink>
                      )}
                      {campaign.anonymous && (
                        <ButtonLink
                          size="small"
                          variant="secondary"
                          to={resultsPath(campaign.id)}
                          aria-label={`Results of the anonymous campaign for ${audienceText(campaign)}`}
                        >
                          Results
                        </ButtonLink>
                      )}
                      {campaign.status === 'active' && (
                        <Button
                          size="small"
                          variant="secondary"
                          busy={working === campaign.id}
                          onClick={() => change.mutate({ id: campaign.id, action: 'pause' })}
                          aria-label={`Pause the campaign for ${audienceText(campaign)}`}
                        >
                          Pause
                        </Button>
                      )}
                      {campaign.status === 'paused' && (
                        <Button
                          size="small"
                          variant="secondary"
                          busy={working === campaign.id}
                          onClick={() => change.mutate({ id: campaign.id, action: 'resume' })}
                          aria-label={`Resume the campaign for ${audienceText(campaign)}`}
                        >
                          Resume
                        </Button>
                      )}
                      {campaign.status !== 'cancelled' && (
                        <Button
                          size="small"
                          variant="danger"
                          busy={working === campaign.id}
                          onClick={() => confirmCancel(campaign)}
                          aria-label={`Cancel the campaign for ${audienceText(campaign)}`}
                        >
                          Cancel
                        </Button>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} />
    </Page>
  );
}

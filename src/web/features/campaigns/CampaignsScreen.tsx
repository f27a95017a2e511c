import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Campaign } from '../../../common/schemas/campaigns';
import { errorMessage } from '../../api';
import { Button, ButtonLink } from '../../ui/Button';
import { Flash, useFlash } from '../../ui/Flash';
import { LoadError } from '../../ui/LoadError';
import { Card, Lead, Page } from '../../ui/Page';
import { tableClassName } from '../../ui/Table';
import { AdminOnly, LoadingStatus, useLoginRedirect } from '../admin/AdminOnly';
import styles from '../roster/Roster.module.css';
import { CAMPAIGNS_QUERY_KEY, changeCampaign, fetchCampaigns } from '../schedule/campaignsApi';
import { isUnauthenticated } from '../templates/templatesApi';

/** The roster's table look: five columns and more do not fit a phone, so each row is a card there. */
const CAMPAIGN_TABLE = tableClassName({ cardsBelow: '40rem', labels: 'above' }, styles.table);

const TITLE = 'Campaigns';

const STATUS_TEXT: Record<Campaign['status'], string> = {
  active: 'Active',
  paused: 'Paused',
  finished: 'Sent',
  cancelled: 'Cancelled',
};

const when = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleString(undefined, {
        weekday: 'short',
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
      })
    : 'None';

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
                <th scope="col">Groups</th>
                <th scope="col">Schedule</th>
                <th scope="col">Status</th>
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
                    {campaign.groups.join(', ')}
                  </th>
                  <td data-label="Schedule">
                    {campaign.recurring ? `Every ${campaign.day}` : campaign.day} at {campaign.time} (
                    {campaign.time_zone})
                  </td>
                  <td data-label="Status">{STATUS_TEXT[campaign.status]}</td>
                  <td data-label="Next round">{when(campaign.next_run_at)}</td>
                  <td data-label="Invited">{campaign.invited}</td>
                  <td data-label="Answered">{campaign.answered}</td>
                  <td data-label="Reminded">{campaign.reminded}</td>
                  <td data-label="Actions">
                    <div className={styles.actions}>
                      {campaign.status === 'active' && (
                        <Button
                          size="small"
                          variant="secondary"
                          busy={working === campaign.id}
                          onClick={() => change.mutate({ id: campaign.id, action: 'pause' })}
                          aria-label={`Pause the campaign for ${campaign.groups.join(', ')}`}
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
                          aria-label={`Resume the campaign for ${campaign.groups.join(', ')}`}
                        >
                          Resume
                        </Button>
                      )}
                      {campaign.status !== 'cancelled' && (
                        <Button
                          size="small"
                          variant="danger"
                          busy={working === campaign.id}
                          onClick={() => change.mutate({ id: campaign.id, action: 'cancel' })}
                          aria-label={`Cancel the campaign for ${campaign.groups.join(', ')}`}
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
    </Page>
  );
}

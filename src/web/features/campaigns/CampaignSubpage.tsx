import { Trans } from '@lingui/react/macro';
import { type QueryKey, useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { can } from '../../../common/roles';
import { ButtonLink } from '../../ui/Button';
import { useCurrentUser } from '../auth/useCurrentUser';
import styles from '../roster/Roster.module.css';

/**
 * One campaign's figures, read for the campaign in the address: `valid` is false for an address
 * that names no campaign (the screen then shows "not found" and asks the server nothing).
 */
export function useCampaignQuery<T>(queryKey: (id: number) => QueryKey, fetch: (id: number) => Promise<T>) {
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0;
  const query = useQuery({ queryKey: queryKey(id), queryFn: () => fetch(id), enabled: valid });
  return { valid, query };
}

/**
 * A campaign screen's title and its way back: to the campaigns list for those who schedule
 * campaigns, to the dashboard for the staff who reached it from there.
 */
export function CampaignSubpageHeader({ title }: { title: string }) {
  const { data: user } = useCurrentUser();
  const mayScheduleCampaigns = user ? can(user.role, 'schedule') : false;
  return (
    <div className={styles.header}>
      <h1>{title}</h1>
      <div className={styles.actions}>
        {mayScheduleCampaigns ? (
          <ButtonLink variant="ghost" to="/admin/campaigns/">
            <Trans>All campaigns</Trans>
          </ButtonLink>
        ) : (
          <ButtonLink variant="ghost" to="/dashboard/">
            <Trans>Back to Dashboard</Trans>
          </ButtonLink>
        )}
      </div>
    </div>
  );
}

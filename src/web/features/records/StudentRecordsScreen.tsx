import { Trans, useLingui } from '@lingui/react/macro';
import { ButtonLink } from '../../ui/Button';
import { Lead, Page } from '../../ui/Page';
import { AdminOnly } from '../admin/AdminOnly';
import layout from '../admin/AdminPage.module.css';
import { ErasureSection } from './ErasureSection';
import { RecordsRequestsSection } from './RecordsRequestsSection';

/** Students' rights over their data (design section 14): records requests and erasure. */
export function StudentRecordsScreen() {
  const { t } = useLingui();
  const title = t`Student records`;
  return (
    <AdminOnly ability="settings" title={title} loadingText={t`Loading student records...`}>
      <Page width="medium">
        <div className={layout.heading}>
          <div>
            <h1>{title}</h1>
            <Lead>
              <Trans>Answer a student&apos;s request to see their records, or to erase them.</Trans>
            </Lead>
          </div>
          <nav className={layout.toolbar} aria-label={t`Student records links`}>
            <ButtonLink variant="secondary" to="/admin/settings/">
              <Trans>Settings</Trans>
            </ButtonLink>
            <ButtonLink variant="secondary" to="/admin/activity/">
              <Trans>Activity</Trans>
            </ButtonLink>
          </nav>
        </div>
        <RecordsRequestsSection />
        <ErasureSection />
      </Page>
    </AdminOnly>
  );
}

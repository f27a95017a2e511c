import { ButtonLink } from '../../ui/Button';
import { Lead, Page } from '../../ui/Page';
import { AdminOnly } from '../admin/AdminOnly';
import layout from '../admin/AdminPage.module.css';
import { ErasureSection } from './ErasureSection';
import { RecordsRequestsSection } from './RecordsRequestsSection';

const TITLE = 'Student records';

/** Students' rights over their data (design section 14): records requests and erasure. */
export function StudentRecordsScreen() {
  return (
    <AdminOnly ability="settings" title={TITLE} loadingText="Loading student records...">
      <Page width="medium">
        <div className={layout.heading}>
          <div>
            <h1>{TITLE}</h1>
            <Lead>Answer a student&apos;s request to see their records, or to erase them.</Lead>
          </div>
          <nav className={layout.toolbar} aria-label="Student records links">
            <ButtonLink variant="secondary" to="/admin/settings/">
              Settings
            </ButtonLink>
            <ButtonLink variant="secondary" to="/admin/activity/">
              Activity
            </ButtonLink>
          </nav>
        </div>
        <RecordsRequestsSection />
        <ErasureSection />
      </Page>
    </AdminOnly>
  );
}

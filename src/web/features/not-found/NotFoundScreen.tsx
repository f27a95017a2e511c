import { pageTitle } from '../../config';
import { ButtonLink } from '../../ui/Button';
import { Lead, Page } from '../../ui/Page';
import { useDocumentTitle } from '../../ui/useDocumentTitle';

export function NotFoundScreen() {
  useDocumentTitle(pageTitle('Page not found'));
  return (
    <Page width="narrow">
      <h1>Page not found</h1>
      <Lead>The page you are looking for does not exist or has moved.</Lead>
      <ButtonLink to="/">Back to Homepage</ButtonLink>
    </Page>
  );
}

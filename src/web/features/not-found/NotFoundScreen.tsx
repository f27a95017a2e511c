import { Trans, useLingui } from '@lingui/react/macro';
import { pageTitle } from '../../config';
import { ButtonLink } from '../../ui/Button';
import { Lead, Page } from '../../ui/Page';
import { useDocumentTitle } from '../../ui/useDocumentTitle';

export function NotFoundScreen() {
  const { t } = useLingui();
  useDocumentTitle(pageTitle(t`Page not found`));
  return (
    <Page width="narrow">
      <h1>
        <Trans>Page not found</Trans>
      </h1>
      <Lead>
        <Trans>The page you are looking for does not exist or has moved.</Trans>
      </Lead>
      <ButtonLink to="/">
        <Trans>Back to Homepage</Trans>
      </ButtonLink>
    </Page>
  );
}

import { Trans, useLingui } from '@lingui/react/macro';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { pageTitle } from '../config';
import { NotFoundScreen } from '../features/not-found/NotFoundScreen';
import { Button, ButtonLink } from '../ui/Button';
import { Page } from '../ui/Page';
import { useDocumentTitle } from '../ui/useDocumentTitle';

/**
 * Shown inside the layout when a screen fails to load or render. The most common cause is a
 * new release replacing the chunk an open tab asks for, which a reload fixes.
 */
export function RouteError() {
  const { t } = useLingui();
  const error = useRouteError();
  useDocumentTitle(pageTitle(t`Something went wrong`));
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundScreen />;
  console.error('Screen failed', error);

  return (
    <Page width="narrow">
      <h1>
        <Trans>Something went wrong</Trans>
      </h1>
      <p>
        <Trans>This page could not be loaded. Please check your connection and try again.</Trans>
      </p>
      <p>
        <Button onClick={() => window.location.reload()}>
          <Trans>Reload the page</Trans>
        </Button>{' '}
        <ButtonLink variant="ghost" to="/" reloadDocument>
          <Trans>Go to the homepage</Trans>
        </ButtonLink>
      </p>
    </Page>
  );
}

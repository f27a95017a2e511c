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
  const error = useRouteError();
  useDocumentTitle(pageTitle('Something went wrong'));
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundScreen />;
  console.error('Screen failed', error);

  return (
    <Page width="narrow">
      <h1>Something went wrong</h1>
      <p>This page could not be loaded. Please check your connection and try again.</p>
      <p>
        <Button onClick={() => window.location.reload()}>Reload the page</Button>{' '}
        <ButtonLink variant="ghost" to="/" reloadDocument>
          Go to the homepage
        </ButtonLink>
      </p>
    </Page>
  );
}

import type { QueryClient } from '@tanstack/react-query';
import { matchPath } from 'react-router';
import { type Api, parsedOnTheServer, type Transport } from '../api';
import { institutionsQuery } from '../features/auth/authApi';
import { currentUserQuery } from '../features/auth/useCurrentUser';

/**
 * The public screens whose first paint the server renders (design section 6): a student opens
 * them on a phone, often before anyone has signed in. The others need who is signed in before
 * they can show anything, and are drawn by the browser alone.
 */
const FIRST_PAINT_SCREENS = [
  '/',
  '/login',
  '/register',
  '/demo-survey',
  '/survey/link/:hashLink',
  '/survey/invite/:token',
] as const;

export function isFirstPaintScreen(pathname: string): boolean {
  return FIRST_PAINT_SCREENS.some((pattern) => matchPath(pattern, pathname));
}

/**
 * Loads what the screen at `pathname` shows into `queryClient` over `client`: who is signed in,
 * and the screen's own data (the institutions to register with, a link's survey). The server runs
 * it before rendering, and the browser, from the answers the server recorded, before hydrating,
 * so both render from the same data, a survey in the page's language. A failure is kept as the query's error, shown the same way
 * on both sides; no retry, which the browser may do later.
 * A survey's queries come with the survey's code, imported here only for a survey: its schemas
 * are no part of the code every page loads.
 */
export async function loadFirstPaintData(
  queryClient: QueryClient,
  pathname: string,
  client: Api,
  language: string,
) {
  const once = { retry: false } as const;
  const loads: Promise<void>[] = [queryClient.prefetchQuery({ ...currentUserQuery(client), ...once })];
  const link = matchPath('/survey/link/:hashLink', pathname)?.params.hashLink;
  const invitation = matchPath('/survey/invite/:token', pathname)?.params.token;
  if (matchPath('/register', pathname))
    loads.push(queryClient.prefetchQuery({ ...institutionsQuery(client), ...once }));
  if (link || invitation) {
    const { invitationSurveyQuery, linkSurveyQuery } = await import('../features/survey/surveyApi');
    if (link) loads.push(queryClient.prefetchQuery({ ...linkSurveyQuery(link, client, language), ...once }));
    if (invitation)
      loads.push(
        queryClient.prefetchQuery({ ...invitationSurveyQuery(invitation, client, language), ...once }),
      );
  }
  await Promise.all(loads);
}

/** One API answer the server's render received, as the page carries it to the browser. */
export interface RecordedAnswer {
  path: string;
  status: number;
  body: string;
}

/** The id of the page's `<script type="application/json">` holding the recorded answers. */
export const RECORDED_ANSWERS_ID = 'first-paint-data';

/** A transport that records each answer of `transport`. */
export function recordingTransport(transport: Transport, into: RecordedAnswer[]): Transport {
  return async (path, init) => {
    const response = await transport(path, init);
    const body = await response.text();
    into.push({ path, status: response.status, body });
    return new Response(body || null, { status: response.status, headers: response.headers });
  };
}

/**
 * A transport that answers each recorded GET once with the server's answer, and asks the server
 * for anything else. The server's render parsed its answers with the same schemas, and drew the
 * page from what they gave: the browser takes them as they are, which is what lets a public page
 * be taken over without loading zod.
 */
export function replayingTransport(answers: readonly RecordedAnswer[], transport: Transport): Transport {
  const remaining = [...answers];
  return (path, init) => {
    const index =
      (init.method ?? 'GET') === 'GET' ? remaining.findIndex((answer) => answer.path === path) : -1;
    const [answer] = index === -1 ? [] : remaining.splice(index, 1);
    if (!answer) return transport(path, init);
    return Promise.resolve(
      parsedOnTheServer(
        new Response(answer.body || null, {
          status: answer.status,
          headers: { 'Content-Type': 'application/json' },
        }),
      ),
    );
  };
}

import type { RouteObject } from 'react-router';
import { NotFoundScreen } from '../features/not-found/NotFoundScreen';
import { AppLayout, AppLoading } from './AppLayout';
import { lazyScreen } from './lazyScreen';
import { RouteError } from './RouteError';

/**
 * Every screen route of spec section 2. Each screen is its own chunk, loaded on first visit.
 * React Router matches with or without the trailing slash; links always use it. The not-found
 * screen is tiny and also used by the error boundary, so it ships with the main bundle.
 */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteError />,
    HydrateFallback: AppLoading,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          {
            index: true,
            lazy: lazyScreen('landing', () =>
              import('../features/landing/LandingScreen').then((m) => m.LandingScreen),
            ),
          },
          {
            path: 'login',
            lazy: lazyScreen('sign-in', () =>
              import('../features/auth/LoginScreen').then((m) => m.LoginScreen),
            ),
          },
          {
            path: 'sign-in/second-factor',
            lazy: lazyScreen('sign-in', () =>
              import('../features/second-factor/SecondFactorScreen').then((m) => m.SecondFactorScreen),
            ),
          },
          {
            path: 'forgot-password',
            lazy: lazyScreen('sign-in', () =>
              import('../features/password-reset/ForgotPasswordScreen').then((m) => m.ForgotPasswordScreen),
            ),
          },
          {
            path: 'reset-password/:token',
            lazy: lazyScreen('sign-in', () =>
              import('../features/password-reset/ResetPasswordScreen').then((m) => m.ResetPasswordScreen),
            ),
          },
          {
            path: 'register',
            lazy: lazyScreen('sign-in', () =>
              import('../features/auth/RegisterScreen').then((m) => m.RegisterScreen),
            ),
          },
          {
            path: 'demo-survey',
            lazy: lazyScreen('survey', () =>
              import('../features/demo-survey/DemoSurveyScreen').then((m) => m.DemoSurveyScreen),
            ),
          },
          {
            path: 'survey',
            lazy: lazyScreen('survey', () =>
              import('../features/survey/SurveyScreen').then((m) => m.SurveyScreen),
            ),
          },
          {
            path: 'survey/link/:hashLink',
            lazy: lazyScreen('survey', () =>
              import('../features/survey/SurveyScreen').then((m) => m.SurveyScreen),
            ),
          },
          {
            path: 'survey/invite/:token',
            lazy: lazyScreen('survey', () =>
              import('../features/survey/InvitationSurveyScreen').then((m) => m.InvitationSurveyScreen),
            ),
          },
          {
            path: 'dashboard',
            lazy: lazyScreen('staff', () =>
              import('../features/dashboard/DashboardScreen').then((m) => m.DashboardScreen),
            ),
          },
          {
            path: 'admin/survey-templates',
            lazy: lazyScreen('staff', () =>
              import('../features/templates/TemplatesScreen').then((m) => m.TemplatesScreen),
            ),
          },
          {
            path: 'admin/team',
            lazy: lazyScreen('staff', () => import('../features/team/TeamScreen').then((m) => m.TeamScreen)),
          },
          {
            path: 'admin/activity',
            lazy: lazyScreen('staff', () =>
              import('../features/activity/ActivityScreen').then((m) => m.ActivityScreen),
            ),
          },
          {
            path: 'staff/invite/:token',
            lazy: lazyScreen('staff', () =>
              import('../features/team/InvitationScreen').then((m) => m.InvitationScreen),
            ),
          },
          {
            path: 'cases',
            lazy: lazyScreen('staff', () =>
              import('../features/cases/CasesScreen').then((m) => m.CasesScreen),
            ),
          },
          {
            path: 'cases/:id',
            lazy: lazyScreen('staff', () => import('../features/cases/CaseScreen').then((m) => m.CaseScreen)),
          },
          {
            path: 'students/:id/history',
            lazy: lazyScreen('staff', () =>
              import('../features/cases/StudentHistoryScreen').then((m) => m.StudentHistoryScreen),
            ),
          },
          {
            path: 'account',
            lazy: lazyScreen('staff', () =>
              import('../features/account/AccountScreen').then((m) => m.AccountScreen),
            ),
          },
          {
            path: 'account/records',
            lazy: lazyScreen('staff', () =>
              import('../features/records/OwnRecordsScreen').then((m) => m.OwnRecordsScreen),
            ),
          },
          {
            path: 'admin/records',
            lazy: lazyScreen('staff', () =>
              import('../features/records/StudentRecordsScreen').then((m) => m.StudentRecordsScreen),
            ),
          },
          {
            path: 'account/security',
            lazy: lazyScreen('staff', () =>
              import('../features/security/SecurityScreen').then((m) => m.SecurityScreen),
            ),
          },
          {
            path: 'admin/settings',
            lazy: lazyScreen('staff', () =>
              import('../features/settings/SettingsScreen').then((m) => m.SettingsScreen),
            ),
          },
          {
            path: 'schedule-survey',
            lazy: lazyScreen('staff', () =>
              import('../features/schedule/ScheduleScreen').then((m) => m.ScheduleScreen),
            ),
          },
          {
            path: 'admin/roster',
            lazy: lazyScreen('staff', () =>
              import('../features/roster/RosterScreen').then((m) => m.RosterScreen),
            ),
          },
          {
            path: 'admin/campaigns',
            lazy: lazyScreen('staff', () =>
              import('../features/campaigns/CampaignsScreen').then((m) => m.CampaignsScreen),
            ),
          },
          {
            path: 'admin/campaigns/:id/not-answered',
            lazy: lazyScreen('staff', () =>
              import('../features/campaigns/NotAnsweredScreen').then((m) => m.NotAnsweredScreen),
            ),
          },
          {
            path: 'admin/campaigns/:id/results',
            lazy: lazyScreen('staff', () =>
              import('../features/campaigns/ResultsScreen').then((m) => m.ResultsScreen),
            ),
          },
          { path: '*', Component: NotFoundScreen },
        ],
      },
    ],
  },
];

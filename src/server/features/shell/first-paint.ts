import { escapeHtml } from './html';

/**
 * What a public screen shows before its JavaScript has arrived: the site header and the top of
 * the screen (heading and introduction), drawn with the classes the app renders them with
 * (vite.config.ts names CSS module classes File_class), so a phone on a slow network shows the
 * page at once, and the app, which replaces this markup in one synchronous render
 * (src/web/main.tsx), draws the same thing in the same place. Keep each in step with its screen.
 */

const LOGO =
  '<svg class="Header_logo" viewBox="0 0 32 32" aria-hidden="true" focusable="false">' +
  '<rect width="32" height="32" rx="8" fill="#0c5f5b"></rect>' +
  '<path d="M16 6c-4 5-7 8.5-7 12.5a7 7 0 0 0 14 0C23 14.5 20 11 16 6z" fill="#e1f0ee"></path></svg>';

const LINK_ICON =
  '<svg class="Survey_linkIcon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path ' +
  'd="M10 14a5 5 0 0 0 7.07 0l3-3a5 5 0 0 0-7.07-7.07l-1.5 1.5M14 10a5 5 0 0 0-7.07 0l-3 3a5 5 0 0 0 7.07 7.07l1.5-1.5" ' +
  'fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"></path></svg>';

/**
 * src/web/app/Header.tsx for a visitor (every public screen is first opened signed out), with
 * the link of the current screen marked as its NavLink marks it.
 */
function header(productName: string, route: string): string {
  const current = ' aria-current="page"';
  const onDemo = route === '/demo-survey/';
  const onLogin = route === '/login/';
  return (
    '<header class="Header_header"><div class="Header_inner">' +
    `<a class="Header_brand" href="/">${LOGO}<span>${productName}</span></a>` +
    '<nav aria-label="Main" class="Header_nav"><ul class="Header_navList">' +
    `<li><a class="Header_navLink${onDemo ? ' Header_navLinkActive' : ''}" href="/demo-survey/"${onDemo ? current : ''}>Demo Survey</a></li>` +
    `<li><a class="Header_loginLink" href="/login/"${onLogin ? current : ''}>Login</a></li>` +
    '</ul></nav></div></header>'
  );
}

/** src/web/ui/Page.tsx: a column (Page) holding a panel (Card). */
function card(width: 'narrow' | 'medium', content: string, cardClass = ''): string {
  return `<div class="Page_page Page_${width}"><div class="Page_card${cardClass}">${content}</div></div>`;
}

const lead = (text: string) => `<p class="Page_lead">${text}</p>`;

/** features/survey/SurveyFrame.tsx's SurveyLoading: the survey's frame while its questions load. */
function surveyLoading({ viaLink }: { viaLink: boolean }): string {
  return card(
    'medium',
    '<div class="Survey_toolbar"><button type="button" class="Button_button Button_ghost Button_small">' +
      '<span aria-hidden="true">←</span> Back</button></div>' +
      '<h1 class="Survey_title">Student Wellness Check</h1>' +
      (viaLink ? `<p class="Survey_linkNote">${LINK_ICON}Survey accessed via shared link</p>` : '') +
      '<div class="Survey_loading" role="status"><span class="Spinner_spinner" aria-hidden="true"></span>' +
      'Loading survey...</div>',
    ' Survey_card',
  );
}

/** The top of each public screen, as its component renders it (paths as in SCREEN_ROUTES). */
const SCREENS: Record<string, (productName: string) => string> = {
  // features/landing/Hero.tsx
  '/': (productName) =>
    '<section class="Landing_hero" aria-labelledby="hero-heading"><div class="Landing_heroInner">' +
    '<div class="Landing_heroText">' +
    '<p class="Landing_eyebrow">Student wellness, measured with care</p>' +
    '<h1 id="hero-heading">Proactive Mental Health Support for Universities</h1>' +
    `<p class="Landing_heroLead">${productName} runs short wellness check-ins with your students and shows ` +
    'your counselling team, in real time, who may need support, so help can reach them early.</p>' +
    '<div class="Landing_heroActions">' +
    '<a class="Button_button Button_primary" href="#demo">Watch Demo</a>' +
    '<a class="Button_button Button_secondary" href="#contact">Get a Quote</a></div>' +
    '<ul class="Landing_heroPoints"><li>FERPA compliant</li><li>Real-time analytics</li>' +
    '<li>Works on any device</li></ul></div></div></section>',
  // features/auth/LoginScreen.tsx
  // features/auth/LoginScreen.tsx until the server says who is signed in (CheckingAuthentication)
  '/login/': () =>
    '<div class="Page_page Page_narrow"><div class="Auth_checking" role="status">' +
    '<span class="Spinner_spinner" aria-hidden="true"></span>Checking authentication...</div></div>',
  // features/auth/RegisterScreen.tsx
  '/register/': () =>
    card(
      'narrow',
      `<h1>Register</h1>${lead('Create your account to take wellness check-ins.')}` +
        '<ol class="Auth_steps" aria-label="Registration progress">' +
        '<li class="Auth_step Auth_stepCurrent" aria-current="step">Institution</li>' +
        '<li class="Auth_step">Account</li></ol>',
    ),
  // features/demo-survey/DemoSurveyScreen.tsx
  '/demo-survey/': () =>
    '<div class="Page_page Page_medium">' +
    '<p class="DemoSurvey_banner"><span class="DemoSurvey_bannerIcon" aria-hidden="true">i</span>' +
    'Demo Survey - Log in to submit a real wellness check.</p>' +
    '<div class="Page_card"><h1>Student Wellness Check</h1>' +
    lead('A preview of the check-in students take. Answers in this demo are not saved or sent.') +
    '</div></div>',
  // features/survey/SurveyFrame.tsx while the questions load (SurveyLoading)
  '/survey/link/:hashLink/': () => surveyLoading({ viaLink: true }),
  // features/survey/InvitationSurveyScreen.tsx: the same, without the shared link's note
  '/survey/invite/:token/': () => surveyLoading({ viaLink: false }),
};

/**
 * The markup that goes inside the shell's `<div id="root">` for a screen route, or '' for a
 * screen that needs the signed-in user before it can show anything.
 */
export function firstPaintMarkup(route: string, brandName: string): string {
  const screen = SCREENS[route];
  if (!screen) return '';
  const productName = escapeHtml(`${brandName} Health`);
  return (
    '<div class="AppLayout_app">' +
    '<a class="AppLayout_skipLink" href="#main">Skip to main content</a>' +
    header(productName, route) +
    `<main id="main" tabindex="-1" class="AppLayout_main">${screen(productName)}</main>` +
    '</div>'
  );
}

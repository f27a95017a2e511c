import { endpoint } from './endpoint';

/** The landing page's contact form: an HTML form post, answered with a page. */

const tags = ['contact'];

export const getContactStyleSheet = /*#__PURE__*/ endpoint({
  method: 'GET',
  path: '/api/contact/page.css',
  summary: 'The style sheet of the pages the contact form answers with',
  tags,
  response: { status: 200, type: 'text/css' },
  errors: [],
  access: 'public',
  hidden: true,
});

export const requestQuote = /*#__PURE__*/ endpoint({
  method: 'POST',
  path: '/api/contact/',
  summary: 'Request a quote (HTML form post); answers with a thank-you page',
  tags,
  response: { status: 200, type: 'text/html' },
  errors: [],
  access: 'public',
});

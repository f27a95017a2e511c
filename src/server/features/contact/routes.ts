import formBody from '@fastify/formbody';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import * as endpoints from '../../../common/endpoints/contact';
import { route } from '../../lib/route';
import { LIMITS, routeLimit } from '../../limit-table';
import { simplePage } from '../shell';
import { saveContactRequest } from './service';

const text = (max: number) => z.string().trim().max(max);

/** The landing page's "Get a Quote" form, as the browser posts it (all values are strings). */
const ContactRequest = z.object({
  institution: text(200).default(''),
  name: text(200).min(1),
  email: z.string().trim().max(254).pipe(z.email()),
  students: z
    .string()
    .trim()
    .max(9)
    .regex(/^\d*$/)
    .default('')
    .transform((value) => (value ? Number(value) : null)),
  message: text(5000).min(1),
});

const PAGE_CSS = `body{font-family:system-ui,sans-serif;margin:0;background:#f6f8f7;color:#1d2b2a}
main{max-width:36rem;margin:4rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px rgb(0 0 0/.08)}
h1{font-size:1.5rem;margin-top:0}a{color:#1b5e57}`;

/**
 * Stores contact requests from the landing page. It is an ordinary HTML form post, so it cannot
 * carry a CSRF header; it changes no account state and is origin-checked and rate-limited instead.
 */
export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(formBody, { bodyLimit: LIMITS.contactBodyBytes.max });
  const brand = app.config.web.brandName;

  route(app, endpoints.getContactStyleSheet, async (_request, reply) =>
    reply.type('text/css').header('Cache-Control', 'public, max-age=3600').send(PAGE_CSS),
  );

  route(
    app,
    endpoints.requestQuote,
    async (request, reply) => {
      const parsed = ContactRequest.safeParse(request.body ?? {});
      if (!parsed.success) {
        return reply
          .status(400)
          .type('text/html; charset=utf-8')
          .send(
            simplePage({
              brand,
              title: 'Please check the form',
              heading: 'Please check the form',
              body: 'Name, a valid email and a message are required, and the number of students must be a number.',
            }),
          );
      }
      await saveContactRequest({ db: app.db.kysely, request: parsed.data });
      return reply.type('text/html; charset=utf-8').send(
        simplePage({
          brand,
          title: 'Thank you',
          heading: 'Thank you for getting in touch',
          body: 'We have received your request and will reply by email within two working days.',
        }),
      );
    },
    { config: { csrf: false, rateLimit: routeLimit(LIMITS.contactPerClient) } },
  );
};

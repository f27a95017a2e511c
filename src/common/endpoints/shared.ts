import { z } from 'zod/mini';
import { IdParam } from '../schemas/common';

// Built by a call marked pure: a page that calls no endpoint using it does not carry it.

/** The `:id` of a path. */
export const IdParams = /*#__PURE__*/ z.object({ id: IdParam });

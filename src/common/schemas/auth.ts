import { z } from 'zod/mini';
import { ROLES } from '../roles';
import { Email } from './common';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** What a staff member signed in with a password alone must do next (design section 11). */
export const SecondFactorStep = z.enum(['enrol', 'verify']);
export type SecondFactorStep = z.infer<typeof SecondFactorStep>;

export const CurrentUser = z.object({
  is_authenticated: z.literal(true),
  is_superuser: z.boolean(),
  is_institution_admin: z.boolean(),
  email: z.string(),
  name: z.string(),
  institution_name: z.nullable(z.string()),
  /** The institution's time zone (IANA name): staff read every date and time in it. */
  time_zone: z.nullable(z.string()),
  /** The language they chose for the product's mail; null while they have chosen none. */
  language: z.optional(z.nullable(z.string())),
  /** What the user may open follows from it (common/roles.ts). */
  role: z.enum(ROLES),
  /** Present while the sign-in waits for a second factor: nothing of staff is served until then. */
  second_factor: z.optional(SecondFactorStep),
});
export type CurrentUser = z.infer<typeof CurrentUser>;

export const CsrfResponse = z.object({ success: z.literal(true), csrftoken: z.string() });
export type CsrfResponse = z.infer<typeof CsrfResponse>;

export const LoginRequest = z.object({
  email: Email,
  password: z
    .string({ error: 'Password is required' })
    .check(z.minLength(1, 'Password is required'), z.maxLength(1024, 'Password is too long')),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const LoginResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  user: CurrentUser,
});
export type LoginResponse = z.infer<typeof LoginResponse>;

const requiredText = /* @__NO_SIDE_EFFECTS__ */ (label: string, max: number) =>
  z
    .string({ error: 'Please fill in all required fields' })
    .check(
      z.trim(),
      z.minLength(1, 'Please fill in all required fields'),
      z.maxLength(max, `${label} must be at most ${max} characters`),
    );

export const RegisterRequest = z.object({
  institution_name: requiredText('Institution name', 200),
  name: requiredText('Full name', 200),
  email: z.pipe(
    z
      .string({ error: 'Please fill in all required fields' })
      .check(z.trim(), z.minLength(1, 'Please fill in all required fields')),
    Email,
  ),
  password: z
    .string({ error: 'Please fill in all required fields' })
    .check(z.minLength(1, 'Please fill in all required fields'), z.maxLength(1024, 'Password is too long')),
  confirm_password: z
    .string({ error: 'Please fill in all required fields' })
    .check(z.minLength(1, 'Please fill in all required fields'), z.maxLength(1024, 'Password is too long')),
});
export type RegisterRequest = z.infer<typeof RegisterRequest>;

const Institution = z.object({ id: z.number().check(z.int()), institution_name: z.string() });

export const InstitutionList = z.array(Institution);
export type InstitutionList = z.infer<typeof InstitutionList>;

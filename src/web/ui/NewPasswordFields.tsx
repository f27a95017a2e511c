import { TextField } from './Field';

/**
 * A new password and its confirmation, named as the API reads them (`password`,
 * `confirm_password`), with the one hint every screen that sets a password gives.
 */
export function NewPasswordFields({ label = 'Password' }: { label?: string }) {
  return (
    <>
      <TextField
        label={label}
        name="password"
        type="password"
        autoComplete="new-password"
        required
        hint="At least 8 characters; a few unusual words are easy to remember and hard to guess."
      />
      <TextField
        label="Confirm Password"
        name="confirm_password"
        type="password"
        autoComplete="new-password"
        required
      />
    </>
  );
}

import { useLingui } from '@lingui/react/macro';
import { TextField } from './Field';

/**
 * A new password and its confirmation, named as the API reads them (`password`,
 * `confirm_password`), with the one hint every screen that sets a password gives.
 */
export function NewPasswordFields({ label }: { label?: string }) {
  const { t } = useLingui();
  return (
    <>
      <TextField
        label={label ?? t`Password`}
        name="password"
        type="password"
        autoComplete="new-password"
        required
        hint={t`At least 8 characters; a few unusual words are easy to remember and hard to guess.`}
      />
      <TextField
        label={t`Confirm Password`}
        name="confirm_password"
        type="password"
        autoComplete="new-password"
        required
      />
    </>
  );
}

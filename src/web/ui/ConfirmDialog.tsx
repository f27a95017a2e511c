import { Trans } from '@lingui/react/macro';
import { Button, type ButtonVariant } from './Button';
import { Modal } from './Modal';

export interface Confirmation {
  title: string;
  /** The question of spec section 5, read out as the dialog's description. */
  text: string;
  confirmLabel: string;
  confirmVariant?: ButtonVariant;
  onConfirm: () => void;
}

/**
 * Asks before an action that changes or removes data. Cancel comes first, so the focus lands on
 * the harmless choice when the dialog opens.
 */
export function ConfirmDialog({
  confirmation,
  onClose,
}: {
  confirmation: Confirmation | null;
  onClose: () => void;
}) {
  return (
    <Modal
      open={confirmation !== null}
      title={confirmation?.title ?? ''}
      role="alertdialog"
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button
            variant={confirmation?.confirmVariant ?? 'primary'}
            onClick={() => {
              const action = confirmation?.onConfirm;
              onClose();
              action?.();
            }}
          >
            {confirmation?.confirmLabel}
          </Button>
        </>
      }
    >
      <p>{confirmation?.text}</p>
    </Modal>
  );
}

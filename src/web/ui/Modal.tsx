import { Trans } from '@lingui/react/macro';
import { type ReactNode, useEffect, useId, useLayoutEffect, useRef } from 'react';
import { Button } from './Button';
import styles from './Modal.module.css';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export type ModalTone = 'neutral' | 'error' | 'success';

interface ModalProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Buttons shown under the content; the first focusable element receives focus on open. */
  actions: ReactNode;
  tone?: ModalTone;
  /** "alertdialog" for messages that need the user's attention (errors, confirmations). */
  role?: 'dialog' | 'alertdialog';
}

/**
 * A modal built on the native <dialog>: showModal() makes the rest of the page inert and
 * handles Escape. On top of that, Tab wraps inside the dialog, and focus returns to where it
 * was when the dialog closes.
 */
export function Modal({
  open,
  title,
  onClose,
  children,
  actions,
  tone = 'neutral',
  role = 'dialog',
}: ModalProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  // A layout effect: the dialog opens and closes as the screen commits, before any screen's own
  // effects run, so a screen that moves focus once the dialog is gone finds the page usable again.
  useLayoutEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || !open) return;
    const previouslyFocused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    const firstFocusable = dialog.querySelector<HTMLElement>(FOCUSABLE);
    firstFocusable?.focus();
    return () => {
      dialog.close();
      if (previouslyFocused?.isConnected) previouslyFocused.focus();
    };
  }, [open]);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    // Escape: keep the dialog state owned by React instead of letting the browser close it.
    const onCancel = (event: Event) => {
      event.preventDefault();
      onCloseRef.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => dialog.removeEventListener('cancel', onCancel);
  }, []);

  function trapTab(event: React.KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== 'Tab') return;
    const focusable = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE));
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <dialog
      ref={dialogRef}
      className={[styles.dialog, styles[tone]].join(' ')}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onKeyDown={trapTab}
    >
      {open && (
        <div className={styles.content}>
          <h2 id={titleId} className={styles.title}>
            {title}
          </h2>
          <div id={bodyId} className={styles.body}>
            {children}
          </div>
          <div className={styles.actions}>{actions}</div>
        </div>
      )}
    </dialog>
  );
}

export interface ModalMessage {
  title: string;
  text: string;
  tone: ModalTone;
}

interface MessageModalProps {
  message: ModalMessage | null;
  onClose: () => void;
}

/** A message the user reads and closes (spec: "messages appear in a modal the user closes"). */
export function MessageModal({ message, onClose }: MessageModalProps) {
  return (
    <Modal
      open={message !== null}
      title={message?.title ?? ''}
      tone={message?.tone}
      role={message?.tone === 'error' ? 'alertdialog' : 'dialog'}
      onClose={onClose}
      actions={
        <Button onClick={onClose}>
          <Trans>Close</Trans>
        </Button>
      }
    >
      <p>{message?.text}</p>
    </Modal>
  );
}

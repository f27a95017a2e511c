import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from 'react';
import styles from './Field.module.css';

/**
 * Labelled form controls. The label, hint and control are wired together with ids, so every
 * control has an accessible name and its hint is read out with it.
 */

interface FieldFrameProps {
  label: ReactNode;
  hint?: ReactNode;
  className?: string;
}

function useFieldIds(hint: ReactNode) {
  const id = useId();
  return { controlId: `${id}-control`, hintId: hint ? `${id}-hint` : undefined };
}

function FieldFrame({
  label,
  hint,
  className,
  controlId,
  hintId,
  children,
}: FieldFrameProps & { controlId: string; hintId?: string; children: ReactNode }) {
  return (
    <div className={[styles.field, className].filter(Boolean).join(' ')}>
      <label className={styles.label} htmlFor={controlId}>
        {label}
      </label>
      {children}
      {hint && (
        <p className={styles.hint} id={hintId}>
          {hint}
        </p>
      )}
    </div>
  );
}

type TextFieldProps = FieldFrameProps & Omit<InputHTMLAttributes<HTMLInputElement>, 'className'>;

export function TextField({ label, hint, className, type = 'text', ...inputProps }: TextFieldProps) {
  const { controlId, hintId } = useFieldIds(hint);
  return (
    <FieldFrame label={label} hint={hint} className={className} controlId={controlId} hintId={hintId}>
      <input
        id={controlId}
        type={type}
        className={styles.control}
        aria-describedby={hintId}
        {...inputProps}
      />
    </FieldFrame>
  );
}

type TextAreaFieldProps = FieldFrameProps & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'className'>;

export function TextAreaField({ label, hint, className, ...textareaProps }: TextAreaFieldProps) {
  const { controlId, hintId } = useFieldIds(hint);
  return (
    <FieldFrame label={label} hint={hint} className={className} controlId={controlId} hintId={hintId}>
      <textarea id={controlId} className={styles.control} aria-describedby={hintId} {...textareaProps} />
    </FieldFrame>
  );
}

type SelectFieldProps = FieldFrameProps & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'className'>;

export function SelectField({ label, hint, className, children, ...selectProps }: SelectFieldProps) {
  const { controlId, hintId } = useFieldIds(hint);
  return (
    <FieldFrame label={label} hint={hint} className={className} controlId={controlId} hintId={hintId}>
      <select id={controlId} className={styles.control} aria-describedby={hintId} {...selectProps}>
        {children}
      </select>
    </FieldFrame>
  );
}

export interface Choice {
  value: string;
  label: string;
  /** Decorative; hidden from assistive technology so the label alone is read. */
  emoji?: string;
}

interface ChoiceGroupProps {
  legend: ReactNode;
  name: string;
  choices: readonly Choice[];
  value?: string;
  onChange?: (value: string) => void;
  required?: boolean;
  disabled?: boolean;
  className?: string;
}

/** A group of radio buttons shown as selectable cards (used by wellness scales). */
export function ChoiceGroup({
  legend,
  name,
  choices,
  value,
  onChange,
  required,
  disabled,
  className,
}: ChoiceGroupProps) {
  return (
    <fieldset className={[styles.choiceGroup, className].filter(Boolean).join(' ')} disabled={disabled}>
      <legend className={styles.legend}>{legend}</legend>
      <div className={styles.choices}>
        {choices.map((choice) => (
          <label key={choice.value} className={styles.choice}>
            <input
              type="radio"
              name={name}
              value={choice.value}
              checked={value === undefined ? undefined : value === choice.value}
              onChange={(event) => onChange?.(event.currentTarget.value)}
              required={required}
            />
            {choice.emoji && (
              <span className={styles.choiceEmoji} aria-hidden="true">
                {choice.emoji}
              </span>
            )}
            <span className={styles.choiceLabel}>{choice.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

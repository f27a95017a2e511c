import { useLingui } from '@lingui/react/macro';
import styles from './Header.module.css';
import { LANGUAGES, switchLanguage } from './i18n';

/** A language's name in itself ("English", "Español"): how a reader of it looks for it in a list. */
function ownName(language: string): string {
  const name = new Intl.DisplayNames([language], { type: 'language' }).of(language) ?? language;
  return name.charAt(0).toLocaleUpperCase(language) + name.slice(1);
}

/**
 * The header's language choice, on every screen and before anyone signs in. Each language is
 * named in itself, and marked as such, so a screen reader says it in that language.
 */
export function LanguageSwitcher({ onChosen }: { onChosen?: (language: string) => void }) {
  const { i18n, t } = useLingui();
  if (LANGUAGES.length < 2) return null;
  return (
    <select
      className={styles.languageSelect}
      aria-label={t`Language`}
      value={i18n.locale}
      onChange={(event) => {
        const language = event.currentTarget.value;
        void switchLanguage(language).then(() => onChosen?.(language));
      }}
    >
      {LANGUAGES.map((language) => (
        <option key={language} value={language} lang={language}>
          {ownName(language)}
        </option>
      ))}
    </select>
  );
}

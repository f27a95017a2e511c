import { useLingui } from '@lingui/react/macro';
import styles from './Header.module.css';
import { LANGUAGES, switchLanguage } from './i18n';
import { languageName } from './languageNames';

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
          {/* Named in itself: how a reader of it looks for it in a list. */}
          {languageName(language)}
        </option>
      ))}
    </select>
  );
}

/** `language`'s name as a reader of `readerLanguage` writes it ("Spanish", "español"), capitalised. */
export function languageName(language: string, readerLanguage: string = language): string {
  const name = new Intl.DisplayNames([readerLanguage], { type: 'language' }).of(language) ?? language;
  return name.charAt(0).toLocaleUpperCase(readerLanguage) + name.slice(1);
}

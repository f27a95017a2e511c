import fs from 'node:fs';
import path from 'node:path';
import { type I18n, type MessageDescriptor, setupI18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import PO from 'pofile';
import { DEFAULT_LANGUAGE } from '../../../common/languages';
import { supportedLanguages } from '../languages';
import { localesFolder } from '../locales-folder';

/**
 * What the server writes itself (mail) in each of the product's languages. Messages are
 * descriptors `{ id, message }` marked for the extractor by an `i18n` comment before them, with
 * the English wording in `message`; `npx lingui extract` gathers them into src/server/locales/{language}/mail.po,
 * read here once per language. A message a catalogue lacks is written in English.
 */
export type Message = MessageDescriptor & { id: string; message: string };

const CATALOGUE = 'mail';

function readCatalogue(language: string): Record<string, string> {
  const file = path.join(localesFolder(), language, `${CATALOGUE}.po`);
  if (!fs.existsSync(file)) return {};
  const messages: Record<string, string> = {};
  for (const item of PO.parse(fs.readFileSync(file, 'utf8')).items) {
    const text = item.msgstr[0];
    if (!item.obsolete && text) messages[item.msgid] = text;
  }
  return messages;
}

const instances = new Map<string, I18n>();

function compiled(messages: Record<string, string>) {
  return Object.fromEntries(Object.entries(messages).map(([id, text]) => [id, compileMessage(text)]));
}

/** The translator for a language; a language the product does not have gets English. */
export function i18nFor(language: string | null | undefined): I18n {
  const wanted = language && supportedLanguages().includes(language) ? language : DEFAULT_LANGUAGE;
  let i18n = instances.get(wanted);
  if (!i18n) {
    const english = readCatalogue(DEFAULT_LANGUAGE);
    const own = wanted === DEFAULT_LANGUAGE ? {} : readCatalogue(wanted);
    i18n = setupI18n({ locale: wanted, messages: { [wanted]: compiled({ ...english, ...own }) } });
    // A message not yet in any catalogue (added since the last extraction) is written from its
    // descriptor's English.
    i18n.setMessagesCompiler(compileMessage);
    instances.set(wanted, i18n);
  }
  return i18n;
}

/** One message in a language, its placeholders filled from `values`. */
export function translate(
  language: string | null | undefined,
  message: Message,
  values?: Record<string, unknown>,
): string {
  return i18nFor(language)._({ ...message, ...(values ? { values } : {}) });
}

export { languagesByEmail } from './queries';

import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { ru } from './i18n.ru';

/**
 * A field's label in the user's language: the entity's own translation, else the field name's, else the
 * spec's Russian label.
 */
export function fieldLabel(
  t: (key: string[], options: { defaultValue: string }) => string,
  field: { name: string; label: string },
  entity?: string,
): string {
  const keys = [`fields.${field.name}`];
  if (entity) keys.unshift(`entityFields.${entity}.${field.name}`);
  return t(keys, { defaultValue: field.label });
}

export const LANGUAGE_KEY = 'language';

let english: Promise<void> | undefined;
/** The English table, once; a Russian user's login page does not carry it (issue 21). */
export function loadEnglish(): Promise<void> {
  english ??= import('./i18n.en').then(({ en }) => {
    // under what remotes added meanwhile (addTranslations): theirs are kept
    i18next.addResourceBundle('en', 'translation', en, true, false);
  });
  return english;
}

/** Russian by default, English switchable. Remotes add their own keys with `addTranslations`. */
export function initI18n() {
  if (i18next.isInitialized) return i18next;
  const lng = localStorage.getItem(LANGUAGE_KEY) ?? 'ru';
  void i18next.use(initReactI18next).init({
    resources: { ru: { translation: ru } },
    lng,
    fallbackLng: 'ru',
    interpolation: { escapeValue: false },
  });
  if (lng === 'en') void loadEnglish().then(() => i18next.changeLanguage('en'));
  return i18next;
}

/** Resolves once the stored language's table is there: the shell draws after it, in that language. */
export const languageReady = (): Promise<void> =>
  i18next.language === 'en' ? loadEnglish() : Promise.resolve();

/** Switches the language (its table loaded first) and remembers it for the next visit. */
export async function changeLanguage(lng: 'ru' | 'en') {
  localStorage.setItem(LANGUAGE_KEY, lng);
  if (lng === 'en') await loadEnglish();
  await i18next.changeLanguage(lng);
}

export function addTranslations(lang: 'ru' | 'en', bundle: Record<string, unknown>) {
  i18next.addResourceBundle(lang, 'translation', bundle, true, false);
}

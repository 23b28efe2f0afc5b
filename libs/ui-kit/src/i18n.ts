import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';

/** Russian by default, English switchable. Remotes add their own keys with `addTranslations`. */
const ru = {
  app: { name: 'Caravan', tagline: 'выкуп и доставка товаров из Китая' },
  common: {
    add: 'добавить',
    save: 'сохранить',
    cancel: 'отмена',
    search: 'поиск',
    deleted: 'удалённые',
    nothingFound: 'ничего не найдено',
    loading: 'загрузка…',
    changesSaved: 'изменения сохранены',
    newRecord: 'новая запись',
  },
  login: {
    title: 'Вход',
    email: 'email',
    password: 'пароль',
    submit: 'войти',
    passwordTooShort: 'пароль должен быть не короче 7 символов',
    invalidEmail: 'введите корректный email',
  },
  layout: {
    profile: 'редактировать профиль',
    exit: 'выход',
    darkMode: 'тёмная тема',
    notifications: 'уведомления',
    menu: 'меню',
    noNotifications: 'нет уведомлений',
  },
  remote: {
    unavailable: 'Раздел «{{title}}» временно недоступен',
    unavailableHint: 'Модуль не загрузился. Остальные разделы работают; попробуйте обновить страницу позже.',
  },
  auth: {
    register: 'Регистрация',
    registerSubmit: 'зарегистрироваться',
    registrationDoneTitle: 'Почти готово',
    recover: 'Восстановление пароля',
    recoverSubmit: 'отправить ссылку',
    passwordRepeat: 'повторите пароль',
    firstName: 'имя',
    lastName: 'фамилия',
    toLogin: 'ко входу',
    confirmTitle: 'Подтверждение email',
    newPasswordTitle: 'Новый пароль',
    newPassword: 'новый пароль',
  },
  users: {
    title: 'Пользователи',
    roles: 'роли',
    state: 'состояние',
    clients: 'клиенты',
    operators: 'операторы',
    addLink: 'связать',
    removeLink: 'убрать связь',
  },
  states: { working: 'работает', waiting_auth: 'ожидает подтверждения', fired: 'заблокирован' },
  profile: {
    title: 'Профиль',
    firstName: 'имя',
    lastName: 'фамилия',
    phone: 'телефон',
    photo: 'фото (ссылка)',
  },
  visitor: {
    about: 'О сервисе',
    catalogue: 'Каталог',
    title: 'товар',
    manufacturer: 'производитель',
    brand: 'бренд',
    quality: 'качество',
    price: 'цена',
  },
  home: { hello: 'Здравствуйте, {{name}}!', sections: 'Разделы, доступные вам:' },
  notFound: { title: 'Страница не найдена', back: 'на главную' },
  sse: { failed: 'ошибка: SSE connection failed', error: 'произошла ошибка' },
};
const en: typeof ru = {
  app: { name: 'Caravan', tagline: 'buying and delivering goods from China' },
  common: {
    add: 'add',
    save: 'save',
    cancel: 'cancel',
    search: 'search',
    deleted: 'deleted',
    nothingFound: 'nothing found',
    loading: 'loading…',
    changesSaved: 'changes saved',
    newRecord: 'new record',
  },
  login: {
    title: 'Sign in',
    email: 'email',
    password: 'password',
    submit: 'sign in',
    passwordTooShort: 'the password must be at least 7 characters',
    invalidEmail: 'enter a valid email',
  },
  layout: {
    profile: 'edit profile',
    exit: 'exit',
    darkMode: 'dark mode',
    notifications: 'notifications',
    menu: 'menu',
    noNotifications: 'no notifications',
  },
  remote: {
    unavailable: 'The “{{title}}” section is unavailable',
    unavailableHint: 'The module failed to load. Everything else works; try reloading later.',
  },
  auth: {
    register: 'Sign up',
    registerSubmit: 'sign up',
    registrationDoneTitle: 'Almost there',
    recover: 'Password recovery',
    recoverSubmit: 'send the link',
    passwordRepeat: 'repeat the password',
    firstName: 'first name',
    lastName: 'last name',
    toLogin: 'to sign in',
    confirmTitle: 'Email confirmation',
    newPasswordTitle: 'New password',
    newPassword: 'new password',
  },
  users: {
    title: 'Users',
    roles: 'roles',
    state: 'state',
    clients: 'clients',
    operators: 'operators',
    addLink: 'link',
    removeLink: 'unlink',
  },
  states: { working: 'working', waiting_auth: 'waiting for approval', fired: 'blocked' },
  profile: {
    title: 'Profile',
    firstName: 'first name',
    lastName: 'last name',
    phone: 'phone',
    photo: 'photo (link)',
  },
  visitor: {
    about: 'About',
    catalogue: 'Catalogue',
    title: 'item',
    manufacturer: 'manufacturer',
    brand: 'brand',
    quality: 'quality',
    price: 'price',
  },
  home: { hello: 'Hello, {{name}}!', sections: 'Sections available to you:' },
  notFound: { title: 'Page not found', back: 'home' },
  sse: { failed: 'error: SSE connection failed', error: 'an error occurred' },
};

export const LANGUAGE_KEY = 'language';

export function initI18n() {
  if (i18next.isInitialized) return i18next;
  void i18next.use(initReactI18next).init({
    resources: { ru: { translation: ru }, en: { translation: en } },
    lng: localStorage.getItem(LANGUAGE_KEY) ?? 'ru',
    fallbackLng: 'ru',
    interpolation: { escapeValue: false },
  });
  return i18next;
}

export function addTranslations(lang: 'ru' | 'en', bundle: Record<string, unknown>) {
  i18next.addResourceBundle(lang, 'translation', bundle, true, false);
}

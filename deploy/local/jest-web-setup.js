// Component tests (jest project 'web', jsdom): Testing Library's matchers, the app's translations,
// and what jsdom lacks but Blueprint and the components use.
require('@testing-library/jest-dom');
const { initI18n, loadEnglish } = require('@caravan/ui-kit');

initI18n();
// the English table is a chunk of its own in the app; tests switch to it with i18next.changeLanguage
globalThis.beforeAll(() => loadEnglish());

if (!window.matchMedia)
  window.matchMedia = (query) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener() {},
    removeListener() {},
    addEventListener() {},
    removeEventListener() {},
    dispatchEvent: () => false,
  });
if (!window.ResizeObserver)
  window.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };

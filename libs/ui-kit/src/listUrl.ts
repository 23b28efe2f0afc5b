/**
 * The list URL the user last saw per list path, search, sort and filters included: the item page's
 * breadcrumb and «отмена» go back to it, as Back does (kept for the tab only).
 */
type Store = Pick<Storage, 'getItem' | 'setItem'>;

const KEY = 'caravan.listUrl:';

const sessionStore = (): Store | null => {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null; // storage refused (privacy mode): the bare list it is
  }
};

export function rememberListUrl(listPath: string, url: string, store = sessionStore()) {
  store?.setItem(KEY + listPath, url);
}

/** The remembered URL of the list at `listPath`, or the bare list when none (or another page's) is kept. */
export function listUrlOf(listPath: string, store = sessionStore()): string {
  const url = store?.getItem(KEY + listPath);
  return url && (url === listPath || url.startsWith(`${listPath}?`)) ? url : listPath;
}

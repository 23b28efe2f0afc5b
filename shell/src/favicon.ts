import faviconUrl from './favicon.svg';

/** The tab icon: the Caravan mark, bundled with the shell (the host page has no icon of its own). */
export function installFavicon() {
  if (document.querySelector('link[rel="icon"]')) return;
  const link = document.createElement('link');
  link.rel = 'icon';
  link.type = 'image/svg+xml';
  link.href = faviconUrl;
  document.head.append(link);
}

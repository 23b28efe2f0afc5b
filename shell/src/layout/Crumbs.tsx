import { Breadcrumbs, type BreadcrumbProps } from '@blueprintjs/core';
import { NEW_ID } from '@caravan/contracts';
import { documentApi, listUrlOf, titleOfRow, type AppStore } from '@caravan/ui-kit';
import { useSelector } from 'react-redux';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { entryText, type MenuEntry } from './menu';

/** Pages whose title is not `menu.<path>`: the shell's own, and the calculator under the tariffs. */
const PAGE_LABELS: Record<string, string> = {
  profile: 'profile.title',
  users: 'menu.users',
  'logistic_route/widget': 'menu.calculator',
};

/**
 * Breadcrumbs from the product root (spec §2): the section's title — from the menu, or the page's own
 * title when the page is not in this user's menu — then the document. An unknown path has no crumb
 * beyond the root. The section's crumb goes back to the list as the user left it (search, filters).
 */
export function Crumbs({ entries }: { entries: MenuEntry[] }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const within = (path: string) => pathname === `/${path}` || pathname.startsWith(`/${path}/`);
  // the longest known path the location starts with: /logistic_route/widget is its own section
  const section = [...entries.map((e) => e.path), ...Object.keys(PAGE_LABELS), pathname.split('/')[1] ?? '']
    .filter((path) => path && within(path))
    .sort((a, b) => b.length - a.length)[0];
  const entry = entries.find((e) => e.path === section);
  const titleKey =
    section && (PAGE_LABELS[section] ?? [`menu.${section}`, `pages.${section}`].find((k) => i18n.exists(k)));
  const rest = section ? pathname.slice(section.length + 2) : '';
  const itemId = Number(rest);
  // the document's title once its page has loaded it (spec §2: 'заказы', then the order title)
  const loaded = useSelector((state: ReturnType<AppStore['getState']>) =>
    section && Number.isInteger(itemId) && itemId > 0
      ? documentApi.endpoints.documentGet.select({ entity: section, id: itemId })(state).data
      : undefined,
  );
  const items: BreadcrumbProps[] = [{ text: t('app.name'), onClick: () => navigate('/') }];
  if (section && (entry || titleKey)) {
    const label = entry ? entryText(t, entry) : t(titleKey!);
    items.push({ text: label, onClick: rest ? () => navigate(listUrlOf(`/${section}`)) : undefined });
    if (rest && Number.isInteger(Number(rest)))
      items.push({
        text: itemId === NEW_ID ? t('common.newRecord') : (loaded && titleOfRow(loaded)) || `#${rest}`,
      });
  }
  return (
    <nav aria-label={t('layout.crumbs')}>
      <Breadcrumbs
        items={items}
        className="caravan-crumbs"
        overflowButtonProps={{ 'aria-label': t('layout.crumbsHidden') }}
      />
    </nav>
  );
}

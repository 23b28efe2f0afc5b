import { Breadcrumbs, type BreadcrumbProps } from '@blueprintjs/core';
import { NEW_ID } from '@caravan/contracts';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { entryText, type MenuEntry } from './menu';

const SHELL_LABELS: Record<string, string> = { profile: 'profile.title', users: 'menu.users' };

/** Breadcrumbs from the product root (spec §2): the section label from the menu, then the document. */
export function Crumbs({ entries }: { entries: MenuEntry[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // the longest menu path the location starts with: /logistic_route/widget is its own section
  const entry = entries
    .filter((e) => pathname === `/${e.path}` || pathname.startsWith(`/${e.path}/`))
    .sort((a, b) => b.path.length - a.path.length)[0];
  const parts = pathname.split('/').filter(Boolean);
  const section = entry?.path ?? parts[0];
  const rest = section ? pathname.slice(section.length + 2) : '';
  const items: BreadcrumbProps[] = [{ text: t('app.name'), onClick: () => navigate('/') }];
  if (section) {
    const label = entry ? entryText(t, entry) : SHELL_LABELS[section] ? t(SHELL_LABELS[section]) : section;
    items.push({ text: label, onClick: rest ? () => navigate(`/${section}`) : undefined });
  }
  if (rest) items.push({ text: Number(rest) === NEW_ID ? t('common.newRecord') : `#${rest}` });
  return <Breadcrumbs items={items} className="caravan-crumbs" />;
}

import { Breadcrumbs, type BreadcrumbProps } from '@blueprintjs/core';
import { NEW_ID } from '@caravan/contracts';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { entryText, type MenuEntry } from './menu';

const SHELL_LABELS: Record<string, string> = { profile: 'profile.title', users: 'menu.users' };

/** Breadcrumbs from the product root (spec §2): section label from the menu, then the document id. */
export function Crumbs({ entries }: { entries: MenuEntry[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [section, id] = useLocation().pathname.split('/').filter(Boolean);
  const items: BreadcrumbProps[] = [{ text: t('app.name'), onClick: () => navigate('/') }];
  if (section) {
    const entry = entries.find((e) => e.path === section);
    const label = entry ? entryText(t, entry) : SHELL_LABELS[section] ? t(SHELL_LABELS[section]) : section;
    items.push({ text: label, onClick: id ? () => navigate(`/${section}`) : undefined });
  }
  if (id) items.push({ text: Number(id) === NEW_ID ? t('common.newRecord') : `#${id}` });
  return <Breadcrumbs items={items} className="caravan-crumbs" />;
}

import { Breadcrumbs, type BreadcrumbProps } from '@blueprintjs/core';
import { NEW_ID } from '@caravan/contracts';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import type { MenuEntry } from './menu';

const SHELL_LABELS: Record<string, string> = { profile: 'профиль', users: 'пользователи' };

/** Breadcrumbs from the product root (spec §2): section label from the menu, then the document id. */
export function Crumbs({ entries }: { entries: MenuEntry[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [section, id] = useLocation().pathname.split('/').filter(Boolean);
  const items: BreadcrumbProps[] = [{ text: t('app.name'), onClick: () => navigate('/') }];
  if (section) {
    const label = entries.find((e) => e.path === section)?.label ?? SHELL_LABELS[section] ?? section;
    items.push({ text: label, onClick: id ? () => navigate(`/${section}`) : undefined });
  }
  if (id) items.push({ text: Number(id) === NEW_ID ? t('common.newRecord') : `#${id}` });
  return <Breadcrumbs items={items} className="caravan-crumbs" />;
}

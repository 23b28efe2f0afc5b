import { NonIdealState } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <NonIdealState
      icon="path-search"
      title={t('notFound.title')}
      action={<Link to="/">{t('notFound.back')}</Link>}
    />
  );
}

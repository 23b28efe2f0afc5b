import { Button } from '@blueprintjs/core';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';

// The dialogs, their texts and Blueprint's overlays come when a visitor first opens one.
const AboutDialog = lazy(() => import('./VisitorDialogs').then((m) => ({ default: m.AboutDialog })));
const CatalogueDialog = lazy(() => import('./VisitorDialogs').then((m) => ({ default: m.CatalogueDialog })));

type Visit = 'about' | 'catalogue';

/** The two visitor links under the login form. */
export function VisitorLinks() {
  const { t } = useTranslation();
  const [open, setOpen] = useState<Visit | null>(null);
  // a dialog stays mounted once opened, so that closing it animates as before
  const [opened, setOpened] = useState<ReadonlySet<Visit>>(new Set());
  const show = (visit: Visit) => {
    setOpened((was) => new Set(was).add(visit));
    setOpen(visit);
  };
  const close = () => setOpen(null);
  return (
    <>
      <div style={{ display: 'flex', justifyContent: 'center', gap: 8, marginTop: 8 }}>
        <Button variant="minimal" icon="info-sign" text={t('visitor.about')} onClick={() => show('about')} />
        <Button
          variant="minimal"
          icon="shop"
          text={t('visitor.catalogue')}
          onClick={() => show('catalogue')}
        />
      </div>
      <Suspense fallback={null}>
        {opened.has('about') && <AboutDialog isOpen={open === 'about'} onClose={close} />}
        {opened.has('catalogue') && <CatalogueDialog isOpen={open === 'catalogue'} onClose={close} />}
      </Suspense>
    </>
  );
}

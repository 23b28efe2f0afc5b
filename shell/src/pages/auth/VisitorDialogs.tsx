import { Dialog, DialogBody, HTMLTable, Spinner, Tab, Tabs } from '@blueprintjs/core';
import { formatMoney, type CatalogueItem, type Reply } from '@caravan/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ABOUT, SELLER } from '../../content/about';

// Loaded when a visitor opens one (./VisitorLinks): the login page carries neither the dialogs nor their texts.
const lang = (language: string) => (language === 'en' ? 'en' : 'ru');

/** The about dialog (spec §1): one tab per section. */
export function AboutDialog({ isOpen, onClose }: { isOpen: boolean; onClose(): void }) {
  const { t, i18n } = useTranslation();
  return (
    <Dialog title={t('visitor.about')} isOpen={isOpen} onClose={onClose} style={{ width: 760 }}>
      <DialogBody>
        <Tabs id="about" vertical renderActiveTabPanelOnly>
          {ABOUT[lang(i18n.language)].map((section) => (
            <Tab
              key={section.id}
              id={section.id}
              title={section.title}
              panel={
                <div style={{ maxWidth: 520 }}>
                  {section.paragraphs.map((p) => (
                    <p key={p}>{p}</p>
                  ))}
                </div>
              }
            />
          ))}
        </Tabs>
      </DialogBody>
    </Dialog>
  );
}

/** The sample catalogue (25 items from the gateway's seed data) with the seller's details. */
export function CatalogueDialog({ isOpen, onClose }: { isOpen: boolean; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const [items, setItems] = useState<CatalogueItem[] | null>(null);
  useEffect(() => {
    if (!isOpen || items) return;
    void fetch('/api/catalogue')
      .then((r) => r.json() as Promise<Reply<CatalogueItem[]>>)
      .then((reply) => setItems(reply.ok ? reply.result : []));
  }, [isOpen, items]);
  return (
    <Dialog title={t('visitor.catalogue')} isOpen={isOpen} onClose={onClose} style={{ width: 900 }}>
      <DialogBody>
        {!items ? (
          <Spinner />
        ) : (
          <HTMLTable compact striped style={{ width: '100%' }} aria-label={t('visitor.catalogue')}>
            <thead>
              <tr>
                <th />
                <th>{t('visitor.title')}</th>
                <th>{t('visitor.manufacturer')}</th>
                <th>{t('visitor.brand')}</th>
                <th>{t('visitor.quality')}</th>
                <th>{t('visitor.price')}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item.id} data-testid="catalogue-item">
                  <td>
                    <img src={item.img} alt="" width={40} height={40} />
                  </td>
                  <td>{item.title}</td>
                  <td>{item.manufacturer}</td>
                  <td>{item.brand}</td>
                  <td>{item.quality}</td>
                  <td style={{ whiteSpace: 'nowrap' }}>{formatMoney(item.price, '¥')}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
        <p className="bp6-text-muted" style={{ marginTop: 12 }}>
          {SELLER[lang(i18n.language)]}
        </p>
      </DialogBody>
    </Dialog>
  );
}

import {
  Button,
  ButtonGroup,
  Dialog,
  DialogBody,
  DialogFooter,
  HTMLTable,
  NonIdealState,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import type { Wallet } from '@caravan/contracts';
import { Money, RefTitle } from '@caravan/ui-kit';
import { useTranslation } from 'react-i18next';
import { byClient, isDefaultWallet, isEmptyWallet, isRoubleWallet } from './wallets';
import '../wallet.css';

export type WalletActions = {
  topUp(w: Wallet): void;
  makeDefault(w: Wallet): void;
  showInWidget(w: Wallet): void;
  remove(w: Wallet): void;
};

/**
 * 'все кошельки' (spec §2 wallet widget: the settings dialog lists wallets grouped by client): each
 * wallet's balance, whether it is the default one and the one in the widget, and its actions.
 */
export function WalletsDialog({
  wallets,
  loading,
  shownId,
  actions,
  onClose,
}: {
  wallets: readonly Wallet[];
  loading: boolean;
  shownId: number | undefined;
  actions: WalletActions;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const groups = byClient(wallets);
  return (
    <Dialog
      isOpen
      className="mfw-dialog mfw-wallets"
      icon="th-list"
      title={t('wallets.all')}
      onClose={onClose}
    >
      <DialogBody>
        {loading && !wallets.length ? (
          <Spinner size={24} />
        ) : !groups.length ? (
          <NonIdealState icon="bank-account" title={t('wallets.noWallets')} />
        ) : (
          groups.map((g) => (
            <section
              key={g.clientId}
              className="mfw-client-group"
              data-testid={`wallets-client-${g.clientId}`}
            >
              <h4 className="bp6-heading">
                <RefTitle entity="client" id={g.clientId} />
              </h4>
              <HTMLTable compact className="mfw-wallet-table">
                <tbody>
                  {g.wallets.map((w) => (
                    <tr key={w.id} data-testid={`wallet-row-${w.id}`}>
                      <td className="mfw-wallet-name">
                        <div>
                          <strong>{w.title}</strong>
                          {isDefaultWallet(w) && (
                            <Tag minimal intent="warning" icon="star" className="mfw-tag">
                              {t('wallets.default')}
                            </Tag>
                          )}
                          {w.id === shownId && (
                            <Tag minimal intent="primary" icon="eye-open" className="mfw-tag">
                              {t('wallets.inWidget')}
                            </Tag>
                          )}
                        </div>
                        {w.label && <div className="bp6-text-muted bp6-text-small">{w.label}</div>}
                      </td>
                      <td className="mfw-num mfw-money">
                        <Money amount={w.amount} currencyId={w.currency_id} />
                      </td>
                      <td className="mfw-actions">
                        <ButtonGroup variant="minimal">
                          <Button
                            title={t('wallets.topUp.action')}
                            icon="add"
                            aria-label={`${t('wallets.topUp.action')}: ${w.title}`}
                            onClick={() => actions.topUp(w)}
                          />
                          <Button
                            title={t('wallets.makeDefault')}
                            icon={isDefaultWallet(w) ? 'star' : 'star-empty'}
                            aria-label={`${t('wallets.makeDefault')}: ${w.title}`}
                            disabled={isDefaultWallet(w) || !isRoubleWallet(w)}
                            onClick={() => actions.makeDefault(w)}
                          />
                          <Button
                            title={t('wallets.showInWidget')}
                            icon="eye-open"
                            aria-label={`${t('wallets.showInWidget')}: ${w.title}`}
                            disabled={w.id === shownId}
                            onClick={() => actions.showInWidget(w)}
                          />
                          <Button
                            title={isEmptyWallet(w) ? t('wallets.delete') : t('wallets.deleteOnlyEmpty')}
                            icon="trash"
                            intent="danger"
                            aria-label={`${t('wallets.delete')}: ${w.title}`}
                            disabled={!isEmptyWallet(w)}
                            onClick={() => actions.remove(w)}
                          />
                        </ButtonGroup>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </HTMLTable>
            </section>
          ))
        )}
      </DialogBody>
      <DialogFooter actions={<Button text={t('wallets.close')} onClick={onClose} />} />
    </Dialog>
  );
}

import { Button } from '@blueprintjs/core';
import type { Wallet } from '@caravan/contracts';
import { useDocumentGetQuery, useDocumentListQuery } from '@caravan/ui-kit';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TopUpDialog } from './TopUpDialog';

/**
 * 'пополнить' for one wallet outside the widget (a wallet's page: an admin tops up a client's wallet,
 * with a comment or as a test), opening the same top-up dialog with the wallets of that wallet's client.
 */
export function TopUpButton({ walletId }: { walletId: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const { data: wallet } = useDocumentGetQuery({ entity: 'wallet', id: walletId }, { skip: !open });
  const clientId = wallet?.client_id as number | undefined;
  const { data: siblings } = useDocumentListQuery(
    {
      entity: 'wallet',
      params: { where_param: [{ field: 'client_id', op: '=', value: clientId ?? 0 }], per_page: 100 },
    },
    { skip: !open || !clientId },
  );
  return (
    <>
      <Button icon="add" text={t('wallets.topUp.action')} onClick={() => setOpen(true)} />
      {open && wallet && siblings && (
        <TopUpDialog
          wallet={wallet as unknown as Wallet}
          wallets={siblings.items as unknown as Wallet[]}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

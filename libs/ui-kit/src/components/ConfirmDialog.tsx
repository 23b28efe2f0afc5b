import { Alert, type Intent } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Confirm dialog (spec §2: delete / restore confirmation and the like). */
export function ConfirmDialog(props: {
  isOpen: boolean;
  text: ReactNode;
  confirmText: string;
  cancelText?: string;
  intent?: Intent;
  onConfirm(): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  return (
    <Alert
      isOpen={props.isOpen}
      intent={props.intent ?? 'primary'}
      confirmButtonText={props.confirmText}
      cancelButtonText={props.cancelText ?? t('common.cancel')}
      onConfirm={props.onConfirm}
      onCancel={props.onCancel}
      canEscapeKeyCancel
      canOutsideClickCancel
    >
      {props.text}
    </Alert>
  );
}

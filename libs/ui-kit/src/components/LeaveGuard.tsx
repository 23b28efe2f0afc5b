import { useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { UNSAFE_NavigationContext } from 'react-router-dom';
import { ConfirmDialog } from './ConfirmDialog';

type Go = (...args: unknown[]) => void;
type History = { push: Go; replace: Go };

/**
 * Asks before unsaved edits are left behind: while `dirty`, the app's own navigations (menu, breadcrumbs,
 * links: the router's push and replace; BrowserRouter has no blocker) wait for a confirmation, and
 * closing or reloading the tab gets the browser's warning. `leaveFreely` runs a navigation that means
 * to leave (after a save, on «отмена») without asking.
 */
export function useLeaveGuard(dirty: boolean): { dialog: ReactNode; leaveFreely(go: () => void): void } {
  const { t } = useTranslation();
  const history = useContext(UNSAFE_NavigationContext).navigator as unknown as History;
  const [pending, setPending] = useState<{ go: () => void } | null>(null);
  const free = useRef(false);

  useEffect(() => {
    if (!dirty) return;
    const { push, replace } = history;
    const guarded =
      (original: Go): Go =>
      (...args) => {
        if (free.current) original.apply(history, args);
        else setPending({ go: () => original.apply(history, args) });
      };
    history.push = guarded(push);
    history.replace = guarded(replace);
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = ''; // browsers before the standard's preventDefault
    };
    window.addEventListener('beforeunload', warn);
    return () => {
      history.push = push;
      history.replace = replace;
      window.removeEventListener('beforeunload', warn);
    };
  }, [dirty, history]);

  const leaveFreely = useCallback((go: () => void) => {
    free.current = true;
    try {
      go();
    } finally {
      free.current = false;
    }
  }, []);

  const dialog = (
    <ConfirmDialog
      isOpen={pending !== null}
      intent="warning"
      text={t('item.leaveConfirm')}
      confirmText={t('item.leave')}
      cancelText={t('item.stay')}
      onConfirm={() => {
        setPending(null);
        pending?.go();
      }}
      onCancel={() => setPending(null)}
    />
  );
  return { dialog, leaveFreely };
}

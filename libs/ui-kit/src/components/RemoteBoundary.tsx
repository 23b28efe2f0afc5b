import { NonIdealState } from '@blueprintjs/core';
import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * What a user sees in a remote's area when the remote cannot be loaded or crashes; `reasons`: the
 * shell refused it (its version does not fit), one line per conflict.
 */
export function RemotePlaceholder({ title, reasons }: { title: string; reasons?: string[] }) {
  const { t } = useTranslation();
  if (reasons?.length)
    return (
      <NonIdealState
        icon="warning-sign"
        title={t('remote.incompatible', { title })}
        description={
          <>
            <ul className="caravan-remote-conflicts">
              {reasons.map((reason) => (
                <li key={reason}>{reason}</li>
              ))}
            </ul>
            <p>{t('remote.incompatibleHint')}</p>
          </>
        }
        className="caravan-remote-placeholder"
      />
    );
  return (
    <NonIdealState
      icon="offline"
      title={t('remote.unavailable', { title })}
      description={t('remote.unavailableHint')}
      className="caravan-remote-placeholder"
    />
  );
}

type State = { failed: boolean };

/** Error boundary around every remote: its failure stays inside its area. */
export class RemoteBoundary extends Component<{ title: string; children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.error(`remote "${this.props.title}" failed`, error);
  }

  override render() {
    return this.state.failed ? <RemotePlaceholder title={this.props.title} /> : this.props.children;
  }
}

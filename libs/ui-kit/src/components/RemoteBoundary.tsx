import { NonIdealState } from '@blueprintjs/core';
import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** What a user sees in a remote's area when the remote cannot be loaded or crashes. */
export function RemotePlaceholder({ title }: { title: string }) {
  const { t } = useTranslation();
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

import { Component, Suspense, useSyncExternalStore, type ComponentType, type ReactNode } from 'react';

/**
 * Places where one remote shows a piece of another (ARCHITECTURE §4, docs/adr/0012-payments.md): the
 * wallet widget in the shell's header, the order payment dialog on mf-orders' order card. The remote
 * owning the piece provides it when its routes module loads; whoever shows it renders a `Slot`, which
 * shows the fallback while nothing provides it and keeps a crash of the piece inside it.
 */
export type SlotProps = {
  'wallet-widget': object;
  'order-payment': { orderId: number; onClose(): void };
};
export type SlotName = keyof SlotProps;

const provided = new Map<SlotName, ComponentType<never>>();
const listeners = new Set<() => void>();
let version = 0;

export function provideSlot<N extends SlotName>(name: N, component: ComponentType<SlotProps[N]>) {
  provided.set(name, component as ComponentType<never>);
  version += 1;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

class SlotBoundary extends Component<
  { name: string; fallback: ReactNode; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    console.error(`slot "${this.props.name}" failed`, error);
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

export function Slot<N extends SlotName>({
  name,
  fallback = null,
  ...props
}: { name: N; fallback?: ReactNode } & SlotProps[N]) {
  useSyncExternalStore(subscribe, () => version);
  const Piece = provided.get(name) as ComponentType<SlotProps[N]> | undefined;
  if (!Piece) return <>{fallback}</>;
  return (
    <SlotBoundary name={name} fallback={fallback}>
      <Suspense fallback={fallback}>
        <Piece {...(props as unknown as SlotProps[N])} />
      </Suspense>
    </SlotBoundary>
  );
}

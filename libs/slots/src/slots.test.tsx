import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { isRemoteRoutesModule, provideSlot, REMOTE_ROUTES_MODULE, Slot } from './index';

/** The slot contract as the shell and the remotes use it: one provides a piece, another shows it. */
describe('Slot', () => {
  it('shows the fallback while no remote provides the piece, and the piece once one does', () => {
    render(<Slot name="wallet-widget" fallback={<span>кошелёк загружается</span>} />);
    expect(screen.getByText('кошелёк загружается')).toBeInTheDocument();

    act(() => provideSlot('wallet-widget', () => <span>баланс 1 000 ₽</span>));
    expect(screen.getByText('баланс 1 000 ₽')).toBeInTheDocument();
    expect(screen.queryByText('кошелёк загружается')).not.toBeInTheDocument();
  });

  it("hands the shower's props to the piece and the piece's calls back", () => {
    const closed: number[] = [];
    provideSlot('order-payment', ({ orderId, onClose }) => (
      <button onClick={onClose}>оплатить заказ {orderId}</button>
    ));
    function OrderCard() {
      const [open, setOpen] = useState(true);
      return open ? (
        <Slot
          name="order-payment"
          orderId={12}
          onClose={() => {
            closed.push(12);
            setOpen(false);
          }}
        />
      ) : (
        <span>диалог закрыт</span>
      );
    }
    render(<OrderCard />);
    act(() => screen.getByRole('button', { name: 'оплатить заказ 12' }).click());
    expect(closed).toEqual([12]);
    expect(screen.getByText('диалог закрыт')).toBeInTheDocument();
  });

  it('keeps a crash of the piece inside the slot: the page around it stays', () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => {});
    provideSlot('wallet-widget', () => {
      throw new Error('the widget broke');
    });
    render(
      <main>
        <h1>Заказы</h1>
        <Slot name="wallet-widget" fallback={<span>кошелёк недоступен</span>} />
      </main>,
    );
    expect(screen.getByRole('heading', { name: 'Заказы' })).toBeInTheDocument();
    expect(screen.getByText('кошелёк недоступен')).toBeInTheDocument();
    logged.mockRestore();
  });
});

describe('the routes module a remote exposes', () => {
  const Page = () => null;

  it('is named ./routes', () => {
    expect(REMOTE_ROUTES_MODULE).toBe('./routes');
  });

  it('is accepted when its default export lists pages with a path, roles and a component', () => {
    expect(isRemoteRoutesModule({ default: [{ path: 'wallet', roles: ['admin'], Component: Page }] })).toBe(
      true,
    );
    expect(isRemoteRoutesModule({ default: [] })).toBe(true);
  });

  it('is refused when it is not that shape (an old build, a wrong file at the address)', () => {
    expect(isRemoteRoutesModule(undefined)).toBe(false);
    expect(isRemoteRoutesModule({ routes: [] })).toBe(false);
    expect(isRemoteRoutesModule({ default: [{ path: 'wallet', Component: Page }] })).toBe(false);
    expect(isRemoteRoutesModule({ default: [{ path: 'wallet', roles: [] }] })).toBe(false);
    expect(isRemoteRoutesModule({ default: [{ path: 7, roles: [], Component: Page }] })).toBe(false);
  });
});

import { assertAccess, ownsValues } from './access';
import { identityOf } from './testing';

const admin = identityOf({ user_id: 1, roles: ['admin'] });
const operator = identityOf({ user_id: 2, roles: ['operator'], operator_ids: [5] });
const client = identityOf({ user_id: 3, roles: ['client'], client_ids: [9] });
const walletOwnership = { client: 'client_id', operator: 'operator_id' };

describe('assertAccess', () => {
  it('lets staff and admins through their doors only', () => {
    expect(() => assertAccess(admin, 'admin')).not.toThrow();
    expect(() => assertAccess(operator, 'staff')).not.toThrow();
    expect(() => assertAccess(operator, 'admin')).toThrow('действие доступно только администратору');
    expect(() => assertAccess(client, 'staff')).toThrow(
      'действие доступно только администратору или оператору',
    );
  });

  it('refuses users who are not working, whatever their roles', () => {
    expect(() => assertAccess({ ...admin, state: 'fired' }, 'any')).toThrow();
    expect(() => assertAccess({ ...client, state: 'waiting_auth' }, 'any')).toThrow();
  });
});

describe('ownsValues', () => {
  it('gives a client the rows of their clients and nothing else', () => {
    expect(ownsValues(client, walletOwnership, { client_id: 9, operator_id: 5 })).toBe(true);
    expect(ownsValues(client, walletOwnership, { client_id: 10, operator_id: 5 })).toBe(false);
  });

  it('gives an operator the rows of their operators, and an admin everything', () => {
    expect(ownsValues(operator, walletOwnership, { client_id: 10, operator_id: 5 })).toBe(true);
    expect(ownsValues(operator, walletOwnership, { client_id: 9, operator_id: 6 })).toBe(false);
    expect(ownsValues(admin, walletOwnership, { client_id: 1, operator_id: 1 })).toBe(true);
  });
});

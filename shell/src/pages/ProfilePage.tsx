import { Button, Card, H3, HTMLTable } from '@blueprintjs/core';
import type { CurrentUser } from '@caravan/contracts';

/** Profile in read-only form; editing (name, phone, photo) arrives with the identity work. */
export function ProfilePage({ user, onExit }: { user: CurrentUser; onExit(): void }) {
  return (
    <Card>
      <H3>Профиль</H3>
      <HTMLTable>
        <tbody>
          <tr>
            <th>имя</th>
            <td>{user.fullname}</td>
          </tr>
          <tr>
            <th>email</th>
            <td>{user.email}</td>
          </tr>
          <tr>
            <th>роли</th>
            <td>{user.role.join(', ')}</td>
          </tr>
        </tbody>
      </HTMLTable>
      <Button icon="log-out" text="выход" onClick={onExit} style={{ marginTop: 12 }} />
    </Card>
  );
}

import { z } from 'zod';

export const ROLES = ['admin', 'operator', 'client'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;
/** How a role is named on the page. */
export const ROLE_LABELS: Record<Role, string> = {
  admin: 'администратор',
  operator: 'оператор',
  client: 'клиент',
};

export const USER_STATES = ['working', 'waiting_auth', 'fired'] as const;
export const UserState = z.enum(USER_STATES);
export type UserState = z.infer<typeof UserState>;

/**
 * Who is calling, as the gateway signs it for the services (claims of the identity token).
 * client_ids / operator_ids come from client_user_link / operator_user_link.
 */
export const Identity = z.object({
  user_id: z.number().int().positive(),
  fullname: z.string(),
  roles: z.array(Role),
  state: UserState,
  client_ids: z.array(z.number().int()),
  operator_ids: z.array(z.number().int()),
});
export type Identity = z.infer<typeof Identity>;

export const hasRole = (identity: Pick<Identity, 'roles'>, ...roles: Role[]): boolean =>
  roles.some((role) => identity.roles.includes(role));
export const isAdmin = (identity: Pick<Identity, 'roles'>) => hasRole(identity, 'admin');
export const isStaff = (identity: Pick<Identity, 'roles'>) => hasRole(identity, 'admin', 'operator');

/** Header carrying the identity token from the gateway to a service. */
export const IDENTITY_HEADER = 'x-caravan-identity';
/** Header carrying the user's session token from the browser to the gateway (spec §7). */
export const AUTH_HEADER = 'auth-token';

import { z } from 'zod';
import { Role, UserState } from '../roles';

/** The current user as the shell receives it (spec §3). */
export const CurrentUser = z.object({
  id: z.number(),
  email: z.string(),
  fullname: z.string(),
  avatar: z.string().nullable(),
  role: z.array(Role),
  options: z.object({
    state: UserState,
    settings: z.record(z.string(), z.unknown()),
  }),
});
export type CurrentUser = z.infer<typeof CurrentUser>;

export const LoginParams = z.strictObject({
  login: z.string().trim().min(3).max(320),
  password: z.string().min(1).max(200),
});

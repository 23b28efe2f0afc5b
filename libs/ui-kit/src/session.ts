import { isAdmin, isStaff, type CurrentUser } from '@caravan/contracts';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { useSelector } from 'react-redux';

/** Who is signed in: the shell puts the current user here, so remotes can decide what to show. */
export const sessionSlice = createSlice({
  name: 'session',
  initialState: { user: null as CurrentUser | null },
  reducers: {
    setCurrentUser: (state, action: PayloadAction<CurrentUser | null>) => {
      state.user = action.payload;
    },
  },
  selectors: { selectCurrentUser: (state) => state.user },
});
export const { setCurrentUser } = sessionSlice.actions;

export const useCurrentUser = () =>
  useSelector((state: { session: { user: CurrentUser | null } }) => state.session.user);

/** The identity's roles in the shape the contracts' role helpers take. */
export const rolesOf = (user: CurrentUser | null) => ({ roles: user?.role ?? [] });
export const userIsAdmin = (user: CurrentUser | null) => isAdmin(rolesOf(user));
export const userIsStaff = (user: CurrentUser | null) => isStaff(rolesOf(user));

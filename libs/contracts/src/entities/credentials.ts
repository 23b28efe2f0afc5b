// The rules of a login's credentials, apart from the zod schemas of user.ts: the login page checks
// them before sending and must not bring zod with it (issue 21).

/** Spec §5: a loose email pattern. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PASSWORD_MIN_LENGTH = 7;

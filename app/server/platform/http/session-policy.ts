/** A session lasts a week from its last extension. */
export const SESSION_EXPIRES_IN_S = 60 * 60 * 24 * 7;
/** Sliding expiry: a session in use is extended at most once a day. */
export const SESSION_UPDATE_AGE_S = 60 * 60 * 24;

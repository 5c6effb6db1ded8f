/**
 * The shop's auth secret in browser tests, so factories can sign session cookies it accepts.
 * A module of its own: the factories need it, and importing it from the browser harness made
 * every integration test that makes a user load playwright-core too.
 */
export const E2E_AUTH_SECRET = "e2e-secret-e2e-secret-e2e-secret-0123456789";

/**
 * The shop's password rules, checked on the server for sign-up, reset and change (the sign-up
 * form shows the reasons). Long passphrases are encouraged; composition rules are not imposed
 * (NIST SP 800-63B), but the most guessed passwords are refused.
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

const COMMON = new Set([
  "password", "password1", "password123", "passw0rd", "12345678", "123456789", "1234567890",
  "qwertyui", "qwerty123", "iloveyou", "11111111", "00000000", "abcd1234", "letmein1",
  "welcome1", "admin123", "sunshine", "football", "baseball", "princess", "linenandloft",
]);

/** Reasons the password is refused; empty when it is acceptable. */
export function passwordProblems(password: string, email?: string): string[] {
  const problems: string[] = [];
  if (password.length < PASSWORD_MIN) problems.push(`Password must be at least ${PASSWORD_MIN} characters.`);
  if (password.length > PASSWORD_MAX) problems.push(`Password must be at most ${PASSWORD_MAX} characters.`);
  if (password.length >= PASSWORD_MIN && password.trim().length === 0) problems.push("Password cannot be only spaces.");
  const lower = password.toLowerCase();
  if (password.length >= PASSWORD_MIN && (COMMON.has(lower) || /^(.)\1+$/.test(password))) {
    problems.push("Password is too easy to guess; choose a less common one.");
  }
  const local = email?.split("@")[0]?.toLowerCase();
  if (email && (lower === email.toLowerCase() || (local && local.length >= 4 && lower === local))) {
    problems.push("Password must not be your email address.");
  }
  return problems;
}

import { describe, expect, it } from "vitest";
import { passwordProblems } from "./password-policy.server";

describe("password rules", () => {
  it("accept a reasonable password and a long passphrase with spaces and emoji", () => {
    expect(passwordProblems("correct-horse-battery")).toEqual([]);
    expect(passwordProblems("my 🐑 sleeps on linen sheets")).toEqual([]);
  });

  it("give the reason for each refusal", () => {
    expect(passwordProblems("short")).toEqual(["Password must be at least 8 characters."]);
    expect(passwordProblems("x".repeat(129))).toContain("Password must be at most 128 characters.");
    expect(passwordProblems("        ")).toContain("Password cannot be only spaces.");
    expect(passwordProblems("Password")).toEqual(["Password is too easy to guess; choose a less common one."]);
    expect(passwordProblems("aaaaaaaaaa")).toEqual(["Password is too easy to guess; choose a less common one."]);
    expect(passwordProblems("ann.smith@example.test", "Ann.Smith@example.test")).toEqual(["Password must not be your email address."]);
    expect(passwordProblems("annsmith", "annsmith@example.test")).toEqual(["Password must not be your email address."]);
  });
});

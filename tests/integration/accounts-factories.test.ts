import { describe, expect, it } from "vitest";
import { getCurrentUser } from "~/server/people/auth/current-user.server";
import { makeAdmin, makeUser, requestAs } from "../factories/users";
import { useTestDatabase } from "../setup/database";

describe("the user factories", () => {
  const t = useTestDatabase();

  it("make users whose session cookie the shop accepts, with the asked role", async () => {
    const customer = await makeUser(t.db);
    const admin = await makeAdmin(t.db, { email: "Boss@Example.test" });
    expect(admin.email).toBe("boss@example.test");
    await expect(getCurrentUser(await requestAs(t.db, customer, "/"))).resolves.toMatchObject({ id: customer.id, role: "customer" });
    await expect(getCurrentUser(await requestAs(t.db, admin, "/"))).resolves.toMatchObject({ id: admin.id, role: "admin" });
    await expect(getCurrentUser(await requestAs(t.db, null, "/"))).resolves.toBeNull();
  });
});

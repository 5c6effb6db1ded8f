import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { asAdmin } from "../factories/users";
import { useShop } from "./harness";
import { hydrated, open, seeToast } from "./page-helpers";

const shop = useShop();

/**
 * A job of the shop's own task whose one try failed, as the queue leaves it (tries spent, the
 * last error kept): added and failed in one transaction, so the shop's worker never takes it.
 * The task must be a one-off one: when a periodic task's cron tick goes through, the worker
 * clears that task's earlier failures, so a tick falling between two steps of the test emptied
 * the list (it did, once, with the change log's 10-minute clean-up).
 */
async function failedJob(task: string, error: string): Promise<string> {
  return shop.db.transaction(async (tx) => {
    const added = await tx.execute<{ id: string }>(sql`select id::text from graphile_worker.add_job(${task}::text, '{}'::json, max_attempts => 1)`);
    const id = added.rows[0]!.id;
    await tx.execute(sql`update graphile_worker._private_jobs set attempts = 1, last_error = ${error}, run_at = now() + interval '1 hour', updated_at = now() where id = ${id}::bigint`);
    return id;
  });
}

/** The task's name as the owner reads it. */
const PAID = "Finish a paid order (save the address, clear the saved cart)";

const jobExists = async (id: string) =>
  (await shop.db.execute(sql`select 1 from graphile_worker._private_jobs where id = ${id}::bigint`)).rows.length > 0;

describe("admin background jobs", () => {
  it("shows a failed job on the dashboard, the sidebar and its page, and 'Try again' runs it", async () => {
    const id = await failedJob("commerce:order-paid", "connection terminated unexpectedly\n    at Client.query (pg/lib/client.js:526:17)");
    const admin = await asAdmin(shop);
    const errors: string[] = [];
    admin.on("pageerror", (e) => errors.push(e.message));

    await open(admin, "/admin");
    const item = admin.getByTestId("attention-jobs");
    await item.waitFor();
    expect(await item.innerText()).toMatch(/^1\s*background job that failed every try\s*See jobs$/);
    const upkeep = admin.getByRole("navigation", { name: "Upkeep" });
    expect(await upkeep.getByRole("link", { name: "Background jobs (1 failed job)" }).count()).toBe(1);

    await item.getByRole("link", { name: /^See jobs/ }).click();
    await admin.waitForURL((u) => u.pathname === "/admin/jobs");
    await admin.getByRole("heading", { level: 1, name: "Background jobs" }).waitFor();
    expect(await admin.title()).toBe("Background jobs — Admin");
    expect(await upkeep.getByRole("link", { name: /^Background jobs/ }).getAttribute("aria-current")).toBe("page");

    const table = admin.getByRole("table");
    const rows = table.locator("tbody tr");
    await expect.poll(() => rows.count()).toBe(1);
    const cells = (await rows.first().getByRole("cell").allInnerTexts()).map((c) => c.replace(/\s+/g, " ").trim());
    expect(cells.slice(0, 4)).toEqual([`${PAID} commerce:order-paid · job ${id}`, expect.stringMatching(/^\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M$/), "1", "connection terminated unexpectedly"]);
    expect(await admin.getByText("pg/lib/client.js").count()).toBe(0);

    await hydrated(admin, rows.first());
    await rows.first().getByRole("button", { name: `Try again: ${PAID} (job ${id})` }).click();
    await seeToast(admin, `${PAID} will run again now.`);
    await admin.getByText("No failed jobs: everything the shop did in the background went through.").waitFor();
    expect(await upkeep.getByRole("link", { name: "Background jobs", exact: true }).count()).toBe(1);
    // The shop's own worker ran it (with no order named, it has nothing to do, so it succeeded): the job is done and gone.
    await expect.poll(() => jobExists(id), { timeout: 20_000 }).toBe(false);
    expect(errors).toEqual([]);
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// Tests never touch the shop's own ./data: uploads, secrets and the outbox live in a temp folder.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-test-data-"));
process.env.DATA_DIR = dir;
process.env.NODE_ENV = "test";
process.env.LOG_LEVEL ??= "silent";
process.env.PUBLIC_URL = "http://localhost:3000";
process.env.BETTER_AUTH_SECRET ??= "test-secret-test-secret-test-secret-0123456789";
delete process.env.SMTP_URL;
delete process.env.STRIPE_SECRET_KEY;

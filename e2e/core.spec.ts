import { execFile } from "node:child_process";
import http from "node:http";
import { promisify } from "node:util";
import { expect, test, type Page } from "@playwright/test";
import { signUp } from "./support/accounts";
import { navigateTo } from "./support/nav";

const run = promisify(execFile);
const SHOTS = "test-results/core";

async function createProduct(page: Page, p: { name: string; sku: string; price: string; isPublic?: boolean }) {
  await page.getByRole("button", { name: "New product" }).click();
  await page.getByLabel("Name").fill(p.name);
  await page.getByLabel("SKU").fill(p.sku);
  await page.getByLabel("Product type").selectOption("poster");
  await page.getByLabel("Width (in)").fill("18");
  await page.getByLabel("Height (in)").fill("24");
  await page.getByLabel("Price").fill(p.price);
  if (p.isPublic) await page.getByLabel(/Public: visible/).check();
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Created ${p.name}.` })).toBeVisible();
  await page.getByRole("button", { name: "Close" }).click();
}

test("products, projects and the unauth token through the studio and the API", async ({ page, request, baseURL }) => {
  const email = `core-${Date.now()}@example.com`;
  const password = "a long enough passphrase";
  await signUp(page, "Core Shop", { email, password });

  // Products: create two (one public), see them listed, archive and restore one.
  await navigateTo(page, "Products");
  await expect(page.getByRole("heading", { name: "Products" })).toBeVisible();
  await expect(page.getByText("No products yet.")).toBeVisible();
  await createProduct(page, { name: "Gallery poster", sku: "POSTER-18x24", price: "29.50", isPublic: true });
  await createProduct(page, { name: "Private proof", sku: "PROOF-1", price: "5" });
  const table = page.getByRole("table", { name: "Products" });
  await expect(table.getByRole("row")).toHaveCount(3);
  await expect(table.getByRole("row", { name: /Gallery poster/ })).toContainText("$29.50");
  await expect(table.getByRole("row", { name: /Gallery poster/ })).toContainText("Public");

  // A duplicate SKU is refused on the field.
  await page.getByRole("button", { name: "New product" }).click();
  await page.getByLabel("Name").fill("Again");
  await page.getByLabel("SKU").fill("PROOF-1");
  await page.getByLabel("Width (in)").fill("1");
  await page.getByLabel("Height (in)").fill("1");
  await page.getByLabel("Price").fill("1");
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByText("Another product of this account already has SKU PROOF-1.")).toBeVisible();
  await page.getByRole("button", { name: "Close" }).click();

  await page.getByRole("button", { name: "Archive Private proof" }).click();
  await page.getByLabel("Status").selectOption("archived");
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table).toContainText("Private proof");
  await page.getByRole("button", { name: "Restore Private proof" }).click();
  await expect(page.getByText("No archived products.")).toBeVisible();
  await page.getByLabel("Status").selectOption("");
  await page.screenshot({ path: `${SHOTS}/products.png`, fullPage: true });

  // Projects: create from a product, move it along, try a foreign report id.
  await navigateTo(page, "Projects");
  await page.getByLabel("Project name").fill("Smith wedding");
  await page.getByLabel("Product").selectOption({ label: "Gallery poster (POSTER-18x24)" });
  await page.getByLabel("Customer email (optional)").fill("ann@example.com");
  await page.getByRole("button", { name: "Create draft" }).click();
  await page.getByRole("link", { name: "Smith wedding" }).first().click();
  await expect(page.getByRole("heading", { name: "Smith wedding" })).toBeVisible();
  await page.getByRole("button", { name: "Submit for review" }).click();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("button", { name: "Start production" })).toBeVisible();
  await page.getByLabel("Report id").fill("rpt_doesnotexist");
  await page.getByRole("button", { name: "Link report" }).click();
  await expect(page.getByText("Preflight report rpt_doesnotexist not found.")).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/project.png`, fullPage: true });

  await page.getByRole("link", { name: "← Projects" }).click();
  await page.getByRole("tab", { name: "Approved" }).click();
  await expect(page.getByRole("table", { name: "Projects" })).toContainText("Smith wedding");
  await page.getByRole("tab", { name: "Draft" }).click();
  await expect(page.getByText("No draft projects.")).toBeVisible();

  // Settings: the unauth token reads public products only; rotation cuts the old one off.
  await navigateTo(page, "Settings");
  const tokenBox = page.getByTestId("unauth-token");
  await expect(tokenBox).toHaveText(/^psu_/);
  const token = (await tokenBox.textContent())!.trim();
  const pub = await request.get("/v1/products", { headers: { "X-Service-Unauth-Token": token } });
  expect(pub.status()).toBe(200);
  expect((await pub.json()).data.map((p: { name: string }) => p.name)).toEqual(["Gallery poster"]);
  const write = await request.post("/v1/products", { headers: { "X-Service-Unauth-Token": token }, data: {} });
  expect(write.status()).toBe(403);
  expect((await write.json()).error).toBe("UNAUTH_TOKEN_SCOPE");
  await page.screenshot({ path: `${SHOTS}/settings.png`, fullPage: true });
  await page.getByRole("button", { name: "Rotate token" }).click();
  await page.getByRole("button", { name: "Confirm rotate" }).click();
  await expect(tokenBox).not.toHaveText(token);
  const rotated = (await tokenBox.textContent())!.trim();
  expect((await request.get("/v1/products", { headers: { "X-Service-Unauth-Token": token } })).status()).toBe(401);
  expect((await request.get("/v1/products", { headers: { "X-Service-Unauth-Token": rotated } })).status()).toBe(200);

  // HTTP Basic against the real server: URL userinfo with curl and node:http, and the header.
  const origin = new URL(baseURL!);
  const userinfo = `http://${encodeURIComponent(email)}:${encodeURIComponent(password)}@${origin.host}/v1/projects?status=approved`;
  const { stdout } = await run("curl", ["-s", "-w", "\n%{http_code}", userinfo]);
  const [body, code] = [stdout.slice(0, stdout.lastIndexOf("\n")), stdout.slice(stdout.lastIndexOf("\n") + 1)];
  expect(code).toBe("200");
  expect(JSON.parse(body).data.map((p: { name: string }) => p.name)).toEqual(["Smith wedding"]);
  const viaNode = await new Promise<number>((resolve, reject) => {
    http.get(`http://${encodeURIComponent(email)}:${encodeURIComponent(password)}@${origin.host}/v1/products`, (res) => {
      res.resume();
      resolve(res.statusCode!);
    }).on("error", reject);
  });
  expect(viaNode).toBe(200);
  const header = `Basic ${Buffer.from(`${email}:${password}`).toString("base64")}`;
  expect((await request.get("/v1/products", { headers: { Authorization: header } })).status()).toBe(200);
  const wrong = await request.get("/v1/products", { headers: { Authorization: `Basic ${Buffer.from(`${email}:nope nope nope`).toString("base64")}` } });
  expect(wrong.status()).toBe(401);
  expect(wrong.headers()["www-authenticate"]).toContain('Basic realm="Print Studio API"');
});

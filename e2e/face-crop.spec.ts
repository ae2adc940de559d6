import fs from "node:fs";
import path from "node:path";
import { unzipSync } from "fflate";
import { expect, test } from "@playwright/test";
import { signUp } from "./support/accounts";
import { navigateTo } from "./support/nav";

// The project's own face photos (test/fixtures/faces, MIT / CC0, see its README).
const photo = (name: string, as = name) => ({ name: as, mimeType: "image/jpeg", buffer: fs.readFileSync(path.resolve(process.cwd(), "test/fixtures/faces", name)) });
// Photos with room for the sports frame (obama2.jpg and biden.jpg are narrow head-and-shoulders shots: TOO_MUCH_PADDING for sports).
const FACES = ["obama.jpg", "obama3.jpg", "two_people.jpg", "obama-1080p.jpg", "obama_and_biden.jpg"];

test("face crop: a batch becomes a task, crops appear beside their originals, one is adjusted by hand, all download as a ZIP", async ({ page }) => {
  test.setTimeout(240_000);
  await signUp(page, "Picture Day Studio");
  await navigateTo(page, "Face crop");
  await expect(page.getByRole("heading", { name: "Face crop" })).toBeVisible();

  // Ten portraits and two photos without a face: more than a request crops at once, so a task.
  const files = [...Array.from({ length: 10 }, (_, i) => photo(FACES[i % FACES.length]!, `student-${String(i + 1).padStart(2, "0")}.jpg`)), photo("coffee.jpg", "cup-1.jpg"), photo("coffee.jpg", "cup-2.jpg")];
  await page.getByTestId("face-crop-input").setInputFiles(files);
  await expect(page.getByTestId("ready-count")).toHaveText("12 photos ready");
  await expect(page.getByTestId("cost")).toContainText("24 tokens for 12 photos");
  await expect(page.getByTestId("cost")).toContainText("Balance: 100 tokens");
  await page.getByRole("radio", { name: /Sports/ }).check({ force: true });
  await page.getByRole("button", { name: "Crop 12 photos" }).click();

  await expect(page.getByTestId("task-progress")).toContainText(/completed: 12 of 12 files/, { timeout: 180_000 });
  const cards = page.getByTestId("crop-card");
  await expect(cards).toHaveCount(10);
  await expect(page.getByTestId("failed-files")).toContainText("cup-1.jpg");
  await expect(page.getByTestId("failed-files")).toContainText("No face was found");
  await expect(page.getByTestId("cost")).toContainText("Balance: 80 tokens");

  // Every crop is a picture that loaded, beside its original.
  const first = cards.first();
  const crop = first.getByRole("img", { name: /cropped/ });
  await expect.poll(() => crop.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  await expect(first.getByRole("img", { name: /original/ })).toBeVisible();
  const before = await crop.getAttribute("src");

  // Adjust one crop by hand: drag the frame, save (free).
  await first.getByRole("button", { name: "Adjust" }).click();
  const dialog = page.getByRole("dialog");
  const frame = dialog.getByTestId("crop-window");
  await expect(frame).toBeVisible();
  const box = (await frame.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 25, box.y + box.height / 2 + 15, { steps: 5 });
  await page.mouse.up();
  await dialog.getByRole("button", { name: "Save crop" }).click();
  await expect(dialog).toBeHidden();
  await expect(first).toContainText("adjusted by hand");
  expect(await first.getByRole("img", { name: /cropped/ }).getAttribute("src")).not.toBe(before);
  await expect(page.getByTestId("cost")).toContainText("Balance: 80 tokens");
  await page.screenshot({ path: test.info().outputPath("face-crop-page.png"), fullPage: true });

  // Download all: every crop is in the ZIP, as a JPEG.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download all as ZIP" }).click()]);
  const zipPath = test.info().outputPath("crops.zip");
  await download.saveAs(zipPath);
  const entries = unzipSync(new Uint8Array(fs.readFileSync(zipPath)));
  const names = Object.keys(entries).sort();
  expect(names).toEqual(Array.from({ length: 10 }, (_, i) => `student-${String(i + 1).padStart(2, "0")}-sports.jpg`));
  for (const n of names) expect([...entries[n]!.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
});

test("face crop with enhance: runs as a task and a small crop gets AI super-resolution", async ({ page }) => {
  test.setTimeout(180_000);
  await signUp(page, "Picture Day Studio");
  await page.goto("/face-crop");
  // A small portrait (480 x 600): its crop (about 324 x 405) is below the 4 x 5 in print size, within
  // the 4x enhance reaches (a 200 x 250 one is refused: FACE_TOO_SMALL_FOR_PRINT).
  const sharp = (await import("sharp")).default;
  const tiny = await sharp(path.resolve(process.cwd(), "test/fixtures/faces/obama.jpg")).resize(480, 600).jpeg().toBuffer();
  await page.getByTestId("face-crop-input").setInputFiles([{ name: "small.jpg", mimeType: "image/jpeg", buffer: tiny }]);
  await page.getByLabel(/Enhance for print/).check();
  await expect(page.getByTestId("cost")).toContainText("6 tokens for 1 photos");
  await page.getByRole("button", { name: "Crop 1 photos" }).click();
  await expect(page.getByTestId("task-progress")).toContainText(/completed: 1 of 1 files/, { timeout: 150_000 });
  await expect(page.getByTestId("crop-card")).toContainText("AI super-resolution to print size");
  await expect(page.getByTestId("crop-card")).toContainText("1200 × 1500 px");
});

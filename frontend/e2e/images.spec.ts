import fs from "node:fs";
import path from "node:path";
import { test, expect, toolCall } from "./harness";
import type { Page } from "@playwright/test";

type Recorded = { path: string; method: string; images?: Array<{ api: string; role: string; mime: string; detail: string; bytes: number }> };

const seeing = { "fake-model": { architecture: { input_modalities: ["text", "image"] } } };
const textOnly = { "fake-model": { architecture: { input_modalities: ["text"] } } };

/** Makes a PNG of w×h in the page (a canvas) and dispatches it as a paste on the composer, as a real paste carries it. */
async function pastePNG(page: Page, w: number, h: number) {
  await page.getByRole("textbox", { name: "Message" }).evaluate(async (box, [w, h]) => {
    const c = document.createElement("canvas");
    c.width = w;
    c.height = h;
    const g = c.getContext("2d")!;
    g.fillStyle = "#c33";
    g.fillRect(0, 0, w, h);
    const blob: Blob = await new Promise((r) => c.toBlob((b) => r(b!), "image/png"));
    const dt = new DataTransfer();
    dt.items.add(new File([blob], "image.png", { type: "image/png" }));
    box.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
  }, [w, h]);
}

/** Drops a generated PNG file named name on the chat, as a drag from the file manager does. */
async function dropPNG(page: Page, name: string, w: number, h: number) {
  await page.getByRole("region", { name: "Chat" }).evaluate(async (chat, [name, w, h]) => {
    const c = document.createElement("canvas");
    c.width = Number(w);
    c.height = Number(h);
    c.getContext("2d")!.fillRect(0, 0, Number(w), Number(h));
    const blob: Blob = await new Promise((r) => c.toBlob((b) => r(b!), "image/png"));
    const dt = new DataTransfer();
    dt.items.add(new File([blob], String(name), { type: "image/png" }));
    chat.dispatchEvent(new DragEvent("dragover", { dataTransfer: dt, bubbles: true, cancelable: true }));
    chat.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, [name, w, h]);
}

test("a pasted and a dropped image show as thumbnails, reach the model, and come back after a restart", async ({ app }) => {
  const a = await app({
    approvalMode: "safe",
    script: { models: ["fake-model"], modelMeta: seeing, responses: [{ text: "A red square and a black one." }] },
  });
  const { page } = a;
  await pastePNG(page, 3000, 1500);
  const pasted = page.getByRole("listitem", { name: "Attachment pasted image" });
  await expect(pasted.getByRole("img", { name: "Thumbnail of pasted image" })).toBeVisible();
  await expect(pasted).toContainText("2048×1024, scaled from 3000×1500");
  await dropPNG(page, "screen.png", 64, 48);
  const dropped = page.getByRole("listitem", { name: "Attachment screen.png" });
  await expect(dropped.getByRole("img", { name: "Thumbnail of screen.png" })).toBeVisible();
  await expect(dropped).toContainText("64×48");

  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("what are these?");
  await box.press("Enter");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("A red square and a black one.");
  await expect(page.getByRole("list", { name: "Attachments" })).toHaveCount(0);
  const mine = page.getByRole("article", { name: "Your message" });
  await expect(mine.getByRole("img")).toHaveCount(2);

  const chats = ((await a.modelRequests()) as Recorded[]).filter((r) => r.path.endsWith("/chat/completions"));
  expect(chats).toHaveLength(1);
  expect(chats[0].images?.map((i) => [i.api, i.role, i.mime, i.detail])).toEqual([
    ["chat", "user", "image/png", "auto"],
    ["chat", "user", "image/png", "auto"],
  ]);
  expect(await a.modelViolations()).toEqual([]);

  // After a restart the resumed session shows the thumbnails again, read from the data folder.
  await a.restart();
  await page.getByRole("button", { name: "Sessions" }).click();
  await page.getByRole("menu", { name: "Sessions" }).getByRole("menuitem", { name: /what are these\?/ }).click();
  const restored = page.getByRole("article", { name: "Your message" });
  await expect(restored).toContainText("what are these?");
  await expect(restored.getByRole("img")).toHaveCount(2);
  await expect(restored.getByRole("img", { name: "Thumbnail of screen.png" })).toHaveJSProperty("naturalWidth", 64);
  await restored.getByRole("button", { name: "Open screen.png full size" }).click();
  const viewer = page.getByRole("dialog", { name: "Image screen.png" });
  await expect(viewer).toContainText("64×48");
  await page.keyboard.press("Escape");
  await expect(viewer).toHaveCount(0);
});

test("a model that cannot see refuses the attachment in the composer and is never sent it", async ({ app }) => {
  const a = await app({
    approvalMode: "safe",
    script: { models: ["fake-model"], modelMeta: textOnly, responses: [{ text: "Text only here." }] },
  });
  const { page } = a;
  await pastePNG(page, 20, 20);
  const chip = page.getByRole("listitem", { name: "Attachment pasted image" });
  await expect(chip.getByRole("alert")).toContainText("The model fake-model cannot see images: its server lists text as its only input.");
  await expect(chip.getByRole("button", { name: /can see images/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Send" })).toBeDisabled();

  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("hello");
  await box.press("Enter");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Text only here.");
  const reqs = (await a.modelRequests()) as Recorded[];
  expect(reqs.filter((r) => r.method === "POST").flatMap((r) => r.images ?? [])).toEqual([]);
  expect(await a.modelViolations()).toEqual([]);
});

// A 1×1 PNG.
const dot = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

test("view_image shows the model a workspace image; the transcript and the file viewer show it as a picture", async ({ app }) => {
  const a = await app({
    approvalMode: "safe", // view_image only reads
    script: { models: ["fake-model"], modelMeta: seeing, responses: [toolCall("call_v", "view_image", { path: "ui/dot.png" }), { text: "A single dot." }] },
  });
  fs.mkdirSync(path.join(a.workspace, "ui"));
  fs.writeFileSync(path.join(a.workspace, "ui/dot.png"), dot);
  const { page } = a;
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("look at ui/dot.png");
  await box.press("Enter");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("A single dot.");
  await expect(page.getByRole("button", { name: "Open dot.png full size" }).getByRole("img")).toHaveJSProperty("naturalWidth", 1);
  const chats = ((await a.modelRequests()) as Recorded[]).filter((r) => r.path.endsWith("/chat/completions"));
  expect(chats[1].images?.map((i) => [i.role, i.mime, i.bytes])).toEqual([["user", "image/png", dot.length]]);
  expect(await a.modelViolations()).toEqual([]);

  await page.getByRole("button", { name: "Files" }).click();
  const tree = page.getByRole("tree", { name: "Workspace files" });
  await tree.getByRole("button", { name: /^ui/ }).click();
  await tree.getByRole("button", { name: /^dot\.png/ }).click();
  const viewer = page.getByRole("dialog", { name: "File ui/dot.png" });
  await expect(viewer.getByRole("img", { name: "ui/dot.png" })).toHaveJSProperty("naturalWidth", 1);
});

test("a message with a picture and an @-mention sends both in one request", async ({ app }) => {
  const a = await app({
    approvalMode: "safe",
    script: { models: ["fake-model"], modelMeta: seeing, responses: [{ text: "The button is off by one." }] },
    files: { "src/button.css": ".button { margin-left: 3px; }\n" },
  });
  const { page } = a;
  await pastePNG(page, 40, 20);
  await expect(page.getByRole("listitem", { name: "Attachment pasted image" }).getByRole("img")).toBeVisible();
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("why does it look like this? ");
  await box.pressSequentially("@src/butt");
  await expect(page.getByRole("listbox", { name: "Files" }).getByRole("option").first()).toHaveText("src/button.css");
  await box.press("Tab");
  await box.press("Enter");
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("The button is off by one.");
  await expect(page.getByRole("listitem", { name: "Attachment pasted image" })).toHaveCount(0);
  const chats = ((await a.modelRequests()) as (Recorded & { body?: unknown })[]).filter((r) => r.path.endsWith("/chat/completions"));
  expect(chats).toHaveLength(1);
  expect(chats[0].images?.map((i) => [i.role, i.mime])).toEqual([["user", "image/png"]]);
  const sent = JSON.stringify(chats[0].body);
  expect(sent).toContain("why does it look like this? @src/button.css");
  expect(sent).toContain('<file path=\\"src/button.css\\">');
  expect(sent).toContain("margin-left: 3px");
  expect(await a.modelViolations()).toEqual([]);
});

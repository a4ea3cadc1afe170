import fs from "node:fs";
import path from "node:path";
import { test, expect } from "./harness";

const call = (id: string, name: string, args: unknown) => ({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] });

// The real backend runs the command under the supervisor helper, confined:
// the dialog says so, the write in the workspace happens, the one outside
// is refused, and the model reads why.
test("an approved command runs confined: the dialog says so and a write outside is refused", async ({ app }) => {
  const outside = path.join("/var/tmp", `gatehouse-e2e-${process.pid}-${Date.now()}`);
  try {
    const { page, workspace, modelRequests } = await app({
      approvalMode: "manual",
      script: {
        models: ["fake-model"],
        responses: [call("call_1", "bash", { action: "exec", command: `echo in > inside.txt; echo out > ${outside}` }), { text: "Done." }],
      },
    });
    const badge = page.getByRole("button", { name: /^Commands are not confined/ });
    test.skip((await badge.count()) > 0 && /Landlock/.test((await badge.getAttribute("aria-label")) ?? ""), "this kernel has no Landlock");
    await expect(badge).toHaveCount(0);
    const box = page.getByRole("textbox", { name: "Message" });
    await box.fill("write two files");
    await box.press("Enter");
    const dialog = page.getByRole("dialog", { name: "bash wants to run a command" });
    await expect(dialog.getByText("confined — writes only in the workspace, temp and tool caches")).toBeVisible();
    await page.keyboard.press("Control+Enter");
    await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText("Done.");
    expect(fs.readFileSync(path.join(workspace, "inside.txt"), "utf8")).toBe("in\n");
    expect(fs.existsSync(outside)).toBe(false);
    expect(JSON.stringify(await modelRequests())).toContain("ran confined by the OS sandbox");
  } finally {
    fs.rmSync(outside, { force: true });
  }
});

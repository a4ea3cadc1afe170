import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { App } from "../App";
import { fakeBackend, giveLayout } from "../test/fakeBackend";

beforeAll(giveLayout);
afterEach(cleanup);

const png = (name = "image.png") => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])], name, { type: "image/png" });

async function setup() {
  const b = fakeBackend();
  render(<App backend={b} />);
  const box = (await screen.findByRole("textbox", { name: "Message" })) as HTMLTextAreaElement;
  await waitFor(() => expect(b.snapshot).toHaveBeenCalled());
  return { b, box };
}

describe("Attachments", () => {
  it("takes a pasted image as a thumbnail and sends it with the message", async () => {
    const { b, box } = await setup();
    fireEvent.paste(box, { clipboardData: { files: [png()], items: [], types: ["Files"] } });
    const chip = await screen.findByRole("listitem", { name: "Attachment pasted image" });
    await waitFor(() => expect(within(chip).getByRole("img", { name: "Thumbnail of pasted image" })).toBeTruthy());
    expect(b.attachImage).toHaveBeenCalledWith("", expect.any(String));
    expect(within(chip).getByText(/4×3/)).toBeTruthy();
    fireEvent.input(box, { target: { value: "what is wrong here?" } });
    fireEvent.keyDown(box, { key: "Enter" });
    await waitFor(() => expect(b.submit).toHaveBeenCalled());
    expect(b.submit.mock.calls[0][0].text).toBe("what is wrong here?");
    expect(b.submit.mock.calls[0][0].images).toHaveLength(1);
    expect(b.submit).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole("list", { name: "Attachments" })).toBeNull();
  });

  it("takes a dropped file, and removes it on request", async () => {
    const { b } = await setup();
    fireEvent.drop(screen.getByRole("region", { name: "Chat" }), { dataTransfer: { files: [png("shot.png")], items: [], types: ["Files"] } });
    await screen.findByRole("listitem", { name: "Attachment shot.png" });
    expect(b.attachImage).toHaveBeenCalledWith("shot.png", expect.any(String));
    fireEvent.click(screen.getByRole("button", { name: "Remove shot.png" }));
    expect(screen.queryByRole("listitem", { name: "Attachment shot.png" })).toBeNull();
  });

  it("says in the composer why a model that cannot see refuses it, and never sends it", async () => {
    const { b, box } = await setup();
    b.attachImage.mockResolvedValueOnce({ refused: "The model fake-model cannot see images.", model: "fake-model", canMark: true });
    fireEvent.paste(box, { clipboardData: { files: [png()], items: [], types: ["Files"] } });
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("cannot see images");
    const send = screen.getByRole("button", { name: "Send" }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    fireEvent.click(within(alert).getByRole("button", { name: "fake-model can see images" }));
    await waitFor(() => expect(b.markModelVision).toHaveBeenCalledWith("fake-model", true));
    await screen.findByRole("img", { name: "Thumbnail of pasted image" });
  });

  it("attaches a file dropped from another application, refused for a text-only model, once the model is marked", async () => {
    const { b } = await setup();
    const refused = { name: "shot.png", size: 99, refused: "Gatehouse does not know whether fake-model can see images.", model: "fake-model", canMark: true, token: "t0k" };
    act(() => b.emit("images.dropped", { files: [refused] }));
    const alert = await screen.findByRole("alert");
    fireEvent.click(within(alert).getByRole("button", { name: "fake-model can see images" }));
    await waitFor(() => expect(b.attachDropped).toHaveBeenCalledWith("t0k"));
    const chip = await screen.findByRole("listitem", { name: "Attachment shot.png" });
    await waitFor(() => expect(within(chip).getByRole("img", { name: "Thumbnail of shot.png" })).toBeTruthy());
    expect(b.attachImage).not.toHaveBeenCalled();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("forgets a refused drop the user removes", async () => {
    const { b } = await setup();
    act(() => b.emit("images.dropped", { files: [{ name: "shot.png", size: 99, refused: "no", model: "fake-model", canMark: true, token: "t1" }] }));
    await screen.findByRole("alert");
    fireEvent.click(screen.getByRole("button", { name: "Remove shot.png" }));
    await waitFor(() => expect(b.forgetDropped).toHaveBeenCalledWith("t1"));
  });

  it("refuses a non-image and one over 20 MB before sending anything", async () => {
    const { b, box } = await setup();
    const pdf = new File(["%PDF"], "doc.pdf", { type: "application/pdf" });
    fireEvent.drop(screen.getByRole("region", { name: "Chat" }), { dataTransfer: { files: [pdf], items: [], types: ["Files"] } });
    expect((await screen.findByRole("alert")).textContent).toContain("not a PNG, JPEG, WEBP or GIF");
    const big = png("big.png");
    Object.defineProperty(big, "size", { value: 21 << 20 });
    fireEvent.paste(box, { clipboardData: { files: [big], items: [], types: ["Files"] } });
    await waitFor(() => expect(screen.getAllByRole("alert").some((a) => a.textContent?.includes("20 MB"))).toBe(true));
    expect(b.attachImage).not.toHaveBeenCalled();
  });

  it("shows a message's images in the transcript, opening full size", async () => {
    const { b } = await setup();
    const image = { id: "b".repeat(64), mime: "image/png", width: 10, height: 5, origWidth: 10, origHeight: 5, origBytes: 99, bytes: 99 };
    act(() => b.emit("turn.started", { prompt: "look", images: [image] }));
    const open = await screen.findByRole("button", { name: "Open pasted image full size" });
    await waitFor(() => expect(within(open).getByRole("img")).toBeTruthy());
    fireEvent.click(open);
    const dialog = screen.getByRole("dialog", { name: "Image pasted image" });
    fireEvent.keyDown(dialog, { key: "Escape" });
    expect(screen.queryByRole("dialog", { name: "Image pasted image" })).toBeNull();
  });
});

describe("Settings → Model: can the model see", () => {
  it("lets the user say so for a model nothing else speaks of, at once", async () => {
    const b = fakeBackend();
    render(<App backend={b} />);
    await screen.findByRole("textbox", { name: "Message" });
    fireEvent.keyDown(window, { key: ",", ctrlKey: true });
    const box = (await screen.findByRole("checkbox", { name: "fake-model can see images" })) as HTMLInputElement;
    expect(box.checked).toBe(false);
    fireEvent.click(box);
    await waitFor(() => expect(b.markModelVision).toHaveBeenCalledWith("fake-model", true));
    expect(box.checked).toBe(true);
  });

  it("says what the server or the table says, without a switch", async () => {
    const b = fakeBackend();
    b.modelVision.mockResolvedValue({ model: "gpt-4o", canSee: true, source: "known_model" });
    render(<App backend={b} />);
    await screen.findByRole("textbox", { name: "Message" });
    fireEvent.keyDown(window, { key: ",", ctrlKey: true });
    expect(await screen.findByText("gpt-4o can see images, from Gatehouse's table of well-known models.")).toBeTruthy();
    expect(screen.queryByRole("checkbox", { name: /can see images/ })).toBeNull();
  });
});

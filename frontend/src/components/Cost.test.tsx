import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { App } from "../App";
import { fakeBackend, giveLayout } from "../test/fakeBackend";
import { costOf, formatCost, sessionCost, sessionUsage, turnModels } from "./cost";
import { priceInput } from "./PriceFields";

beforeAll(giveLayout);
afterEach(cleanup);

const u = (p: number, c: number) => ({ promptTokens: p, completionTokens: c, totalTokens: p + c, cachedTokens: 0 });
const stop = (t: string, usage = u(1000, 200)) => ({ kind: "stop" as const, turnId: t, reason: "completed" as const, usage });

describe("cost", () => {
  it("prices tokens per million, sums a session's turns and says free on a local server", () => {
    const items = [{ kind: "user" as const, turnId: "t1", text: "a" }, stop("t1"), stop("t2", u(3000, 800))];
    expect(sessionUsage(items)).toEqual(u(4000, 1000));
    // A subagent's turns count toward the session: parent + child.
    expect(sessionUsage(items, { c1: { items: [stop("c-t1", u(500, 100))] } })).toEqual(u(4500, 1100));
    const p = { price: { inputPerMTok: 2.5, outputPerMTok: 10 }, source: "builtin" as const };
    expect(costOf(u(4000, 1000), p)).toBeCloseTo(0.02);
    expect(formatCost(0.02, p)).toBe("$0.02");
    expect(formatCost(0.0012, p)).toBe("$0.0012");
    expect(costOf(u(1, 1), { price: { inputPerMTok: 0, outputPerMTok: 0 }, source: "" })).toBeUndefined();
    const local = { price: { inputPerMTok: 0, outputPerMTok: 0 }, source: "local" as const };
    expect(formatCost(costOf(u(5, 5), local), local)).toBe("free (local server)");
  });

  it("prices each turn at the model that ran it, and knows no total while a turn's model has no price", () => {
    const at = (t: string, model: string | undefined, usage = u(1000, 0)) => ({ ...stop(t, usage), model });
    const price = (n: number) => ({ price: { inputPerMTok: n, outputPerMTok: 0 }, source: "saved" as const });
    const items = [at("t1", "a"), at("t2", "b")];
    expect(turnModels(items, { c: { items: [at("c1", "c")] } })).toEqual(["a", "b", "c"]);
    expect(sessionCost(items, undefined, { byModel: { a: price(10), b: price(1000) }, current: price(1000) })).toBeCloseTo(1.01);
    // A turn saved before turns carried their model is priced at the model in effect.
    expect(sessionCost([at("t0", undefined), ...items], undefined, { byModel: { a: price(10), b: price(1000) }, current: price(1000) })).toBeCloseTo(2.01);
    expect(sessionCost(items, undefined, { byModel: { a: price(10) }, current: price(1) })).toBeUndefined();
  });

  it("sums the cost the backend priced each turn at, a subagent's too, with no price known here", () => {
    const priced = (t: string, cost: number) => ({ ...stop(t, u(1000, 0)), model: "m", cost });
    expect(sessionCost([priced("t1", 0.25)], { c: { items: [priced("c1", 0.5)] } }, undefined)).toBeCloseTo(0.75);
  });

  it("reads typed prices, refuses nonsense and clears with both fields empty", () => {
    expect(priceInput({ input: "3", output: "15", touched: true })).toEqual({ price: { inputPerMTok: 3, outputPerMTok: 15 } });
    expect(priceInput({ input: "", output: "", touched: true })).toEqual({ clearPrice: true });
    expect(priceInput({ input: "3", output: "", touched: false })).toEqual({});
    expect(() => priceInput({ input: "-1", output: "2", touched: true })).toThrow(/not a number of 0 or more/);
    expect(() => priceInput({ input: "abc", output: "2", touched: true })).toThrow(/input price/);
  });

  it("shows each turn's cost and the session's total in the header once a price is set in Settings", async () => {
    const b = fakeBackend({}, { sessionId: "s1", lastSeq: 2, transcript: [{ kind: "user", id: "t1", turnId: "t1", text: "hi" }, stop("t1", u(100_000, 20_000))] });
    render(<App backend={b} />);
    const total = await screen.findByRole("status", { name: /This session: 100,000 input and 20,000 output tokens/ });
    expect(total.textContent).toBe("120k tokens · free (local server)");

    fireEvent.click(screen.getByRole("button", { name: "Settings" }));
    const input = await screen.findByRole("textbox", { name: "Input" });
    await waitFor(() => expect((screen.getByRole("textbox", { name: "Model" }) as HTMLInputElement).value).toBe("fake-model"));
    fireEvent.input(input, { target: { value: "3" } });
    fireEvent.input(screen.getByRole("textbox", { name: "Output" }), { target: { value: "15" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(b.saveSettings).toHaveBeenCalledWith(expect.objectContaining({ model: "fake-model", price: { inputPerMTok: 3, outputPerMTok: 15 } })));
    await screen.findByText("✓ Saved.");
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    // 100k in at $3/M + 20k out at $15/M = $0.30 + $0.30.
    await waitFor(() => expect(screen.getByRole("status", { name: /This session/ }).textContent).toBe("120k tokens · $0.60"));
    const marker = await screen.findByRole("note", { name: "End of turn" });
    expect(within(marker).getByText(/120,000 tokens/).textContent).toContain("· $0.60");
    act(() => {
      b.emit("turn.started", { prompt: "more" }, "t2");
      b.emit("turn.stopped", { reason: "completed", usage: u(10_000, 0) }, "t2");
    });
    expect(screen.getByRole("status", { name: /This session/ }).textContent).toBe("130k tokens · $0.63");
  });
});

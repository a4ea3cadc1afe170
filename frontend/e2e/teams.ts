// Agent teams in the window, for the team specs.
import type { Locator, Page } from "@playwright/test";
import { expect, send } from "./harness";

/** Turns teams on with /experimental teams and returns the Team panel, empty. */
export async function teamsOn(page: Page): Promise<Locator> {
  await send(page, "/experimental teams");
  const panel = page.getByRole("complementary", { name: "Team" });
  await expect(panel.getByText("No teammates yet. The lead starts them with team_spawn.")).toBeVisible();
  return panel;
}

/** A tool call of a scripted model reply. */
export const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: JSON.stringify(args) });

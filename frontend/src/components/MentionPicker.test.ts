import { describe, expect, it } from "vitest";
import { completeMention, mentionQuery, mentionsIn } from "./MentionPicker";

describe("mentions", () => {
  it("finds the token being typed, completes it and lists what is sent", () => {
    expect(mentionQuery("fix @src/ma")).toBe("src/ma");
    expect(mentionQuery("mail me@x.org")).toBeUndefined();
    expect(mentionQuery("@")).toBe("");
    expect(completeMention("fix @src/ma", "src/main.go")).toBe("fix @src/main.go ");
    expect(completeMention("see @sr", "src/")).toBe("see @src/");
    const picked = new Set(["src/main.go", "src/"]);
    expect(mentionsIn("look at @src/main.go:10-40 and @src/ and @other.go", picked)).toEqual(["src/main.go:10-40", "src/"]);
  });
});

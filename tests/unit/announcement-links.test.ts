// The announcement cards' links (spec 2 §1) in the env module: defaults when unset, hidden when
// set empty, and anything but an http(s) URL or an in-app path refused when the server starts.
import { describe, expect, it } from "vitest";
import {
  ANNOUNCEMENT_DEFAULTS,
  announcementLinksOf,
  envSchema,
  isLinkTarget,
} from "~/lib/env.server";

const links = (vars: Record<string, string>) => {
  const result = envSchema.safeParse(vars);
  if (!result.success) throw new Error(result.error.message);
  return announcementLinksOf(result.data);
};

describe("announcement links", () => {
  it("default to the vendor's pages when unset", () => {
    expect(links({})).toEqual(ANNOUNCEMENT_DEFAULTS);
    for (const url of Object.values(ANNOUNCEMENT_DEFAULTS)) expect(isLinkTarget(url)).toBe(true);
  });

  it("take an installation's URLs and in-app paths", () => {
    expect(
      links({
        ANNOUNCE_SURVEY_URL: "https://forms.example.org/arc-survey",
        ANNOUNCE_TUTORIALS_URL: " /app/help ",
        ANNOUNCE_NEWS_URL: "http://social.example.org/arc",
      }),
    ).toEqual({
      survey: "https://forms.example.org/arc-survey",
      tutorials: "/app/help",
      news: "http://social.example.org/arc",
    });
  });

  it("hide a card whose variable is set empty, and all of them when all are", () => {
    expect(links({ ANNOUNCE_NEWS_URL: "" })).toEqual({ ...ANNOUNCEMENT_DEFAULTS, news: null });
    expect(
      links({ ANNOUNCE_SURVEY_URL: "", ANNOUNCE_TUTORIALS_URL: " ", ANNOUNCE_NEWS_URL: "" }),
    ).toEqual({ survey: null, tutorials: null, news: null });
  });

  it.each([
    "javascript:alert(1)",
    "ftp://files.example.org/tutorials",
    "www.example.org",
    "//evil.example.org/path",
    "/\\evil.example.org",
    "data:text/html,hi",
    "https://",
  ])("refuse %s at start", (value) => {
    const result = envSchema.safeParse({ ANNOUNCE_TUTORIALS_URL: value });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join("."))).toEqual(["ANNOUNCE_TUTORIALS_URL"]);
  });
});

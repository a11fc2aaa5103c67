// Issue 46: the team resources and the team page are purged with their tournament, and each file
// is served at its URL, as every tournament file is (the host rules come from the route table).
import { describe, expect, it } from "vitest";
import { purgeTagOfFile, urlsOfFile } from "../../../src/hosting/purge.ts";

const FILES = [
  "api/public/v1/tournaments/4600/teams/standings/index.json",
  "api/public/v1/tournaments/4600/teams/standings/rounds/2/index.json",
  "api/public/v1/tournaments/4600/teams/index.json",
  "api/public/v1/tournaments/4600/teams/matches/3/index.json",
  "api/public/v1/tournaments/4600/teams/7/index.json",
  "api/clubs/bavaria/tournaments/4600/teams/7/index.json",
  "api/clubs/bavaria/tournaments/4600/teams/standings/index.json",
  "api/clubs/bavaria/tournaments/4600/teams/matches/3/index.json",
  "tournaments/4600/teams/index.html",
  "tournaments/4600/teams/7/index.html",
];

describe("team files", () => {
  it.each(FILES)("%s: the tournament's purge tag, served at its path", (file) => {
    expect(purgeTagOfFile(file)).toBe("tournament-4600");
    const url = `/${file.replace(/index\.(json|html)$/, "")}`;
    expect(urlsOfFile(file)).toContain(url);
  });
});

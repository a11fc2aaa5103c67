// 404.html: the HTML error page every host serves for an unknown page path.
import { describe, expect, it } from "vitest";
import { errorPage } from "../../../../src/output/problem.ts";
import { hostFile } from "../../../support/host-files.ts";

describe("404.html", () => {
  it("is the HTML page for unknown page paths, from the one error builder", () => {
    expect(hostFile("404.html")).toBe(errorPage(404));
    expect(hostFile("404.html")).toMatch(/^<!doctype html>\n<html lang="en">/);
  });
});

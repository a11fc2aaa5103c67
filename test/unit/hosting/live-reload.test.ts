import { describe, expect, it } from "vitest";
import {
  LIVE_EVENTS_PATH,
  LIVE_SCRIPT,
  LIVE_SCRIPT_PATH,
  withLiveScript,
} from "../../../src/hosting/live-reload.ts";

describe("the live-reload script tag", () => {
  it("goes just before </head>, once, as a same-origin file (no inline code)", () => {
    const page = "<!doctype html><html><head><title>t</title></head><body><p>x</p></body></html>";
    const out = withLiveScript(Buffer.from(page)).toString("utf8");
    expect(out).toBe(
      `<!doctype html><html><head><title>t</title><script src="${LIVE_SCRIPT_PATH}" defer></script></head><body><p>x</p></body></html>`,
    );
  });

  it("goes at the end of a page without </head>, and keeps UTF-8 text intact", () => {
    const out = withLiveScript(Buffer.from("<p>Rápido ñandú</p>")).toString("utf8");
    expect(out).toBe(`<p>Rápido ñandú</p><script src="${LIVE_SCRIPT_PATH}" defer></script>`);
  });

  it("the script listens to the event stream and reloads on a build event", () => {
    expect(LIVE_SCRIPT).toContain(`new EventSource(${JSON.stringify(LIVE_EVENTS_PATH)})`);
    expect(LIVE_SCRIPT).toContain('addEventListener("build"');
    expect(LIVE_SCRIPT).toContain("location.reload()");
  });
});

// `build-api publish`'s report as the CLI prints it: what was rendered, what was sent, why every
// file was compared (when it was), and the purge tags. Lines only: cli/program.ts prints them.
import type { PublishToBucketReport } from "./publish.ts";
import { jsonText, noteLines, plural } from "./build-report.ts";

export function publishLines(r: PublishToBucketReport): string[] {
  const d = r.deploy;
  const where = `s3://${d.bucket}/${d.prefix}`;
  const lines: string[] = [];
  if (r.build === undefined) {
    lines.push(
      `build-api: ${where} is up to date (same store and options; no status changes at this instant)`,
    );
    return lines;
  }
  const p = r.build.publish;
  lines.push(
    `build-api: rendered ${plural(r.build.render.rendered?.tournaments ?? 0, "tournament")} of ` +
      `${r.build.render.tournaments} (${p.filesWritten} files with new bytes, ${p.filesRemoved} removed)`,
  );
  if (r.fallback !== undefined) lines.push(`build-api: every file was rendered and compared: ${r.fallback}`);
  lines.push(
    `build-api: published to ${where}: sent ${plural(d.sent, "object")} (${d.sentBytes} bytes), ` +
      `${d.retagged} with new headers, removed ${d.removed}, ${d.requests} requests` +
      `${d.resumed ? ", settled an interrupted publish" : ""} (${d.seconds.toFixed(1)} s)`,
  );
  if (d.purge.tags.length > 0) lines.push(`build-api: purge tags: ${d.purge.tags.join(",")}`);
  lines.push(...noteLines(r.build).map((n) => `build-api: ${n}`));
  return lines;
}

/** The report as JSON (bigints as strings), as `build --json` writes its own. */
export function publishJson(r: PublishToBucketReport): string {
  return jsonText(r as never);
}

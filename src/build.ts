// The one place that joins I/O: open the store → render every file → validate → publish
// atomically. A failure anywhere leaves the previous snapshot untouched.
import { DEFAULT_STATUS_OPTIONS, type StatusOptions } from "./domain/status.ts";
import { openApiText } from "./emit/generated.ts";
import { hostFiles } from "./emit/hosts/index.ts";
import { SnapshotValidator } from "./emit/validate.ts";
import { publishSnapshot, type PublishReport } from "./publish/index.ts";
import { renderSnapshot, type RenderReport } from "./render.ts";
import { openStore } from "./store/open.ts";

export interface BuildOptions {
  db: string;
  out: string;
  /** The build instant, epoch milliseconds: the same store and instant give the same bytes. */
  now: number;
  statusOptions?: StatusOptions;
  skipInvalid?: boolean;
  force?: boolean;
  onProgress?: (done: number, total: number) => void;
}

export interface BuildReport {
  render: RenderReport;
  publish: PublishReport;
}

export async function build(opts: BuildOptions): Promise<BuildReport> {
  const store = openStore(opts.db);
  try {
    const validator = new SnapshotValidator();
    let render: RenderReport | undefined;
    const publish = await publishSnapshot({ outDir: opts.out, force: opts.force }, (writer) => {
      render = renderSnapshot(store, writer, {
        now: opts.now,
        statusOptions: opts.statusOptions ?? DEFAULT_STATUS_OPTIONS,
        skipInvalid: opts.skipInvalid ?? false,
        validator,
        openApi: openApiText(),
        hostFiles: hostFiles(store.vocabulary()),
        onProgress: opts.onProgress,
      });
    });
    return { render: render!, publish };
  } finally {
    store.close();
  }
}

// The error of a store whose path stopped naming the file a build opened: one build, one store.
import { BuildError, EXIT } from "../../shared/errors.ts";

/**
 * The store's path names another file than the one this build read (it was renamed over, or
 * removed): one build reads one file, so it stops here and publishes nothing.
 */
export function replacedError(file: string, when: string): BuildError {
  return new BuildError(
    `The store ${file} was replaced or removed ${when}; nothing was published.`,
    [
      {
        where: file,
        what: "the path no longer names the file the build opened (another inode, or none)",
        fix: "build again; replace a store between builds, not during one",
      },
    ],
    EXIT.storeUnreadable,
  );
}

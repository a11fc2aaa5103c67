// Makes one call of the publication layer's file system seam (src/publish/io.ts) fail with the
// error object the kernel's errno gives in Node: an Error with code, errno, syscall and path.
import { constants } from "node:os";
import { vi } from "vitest";
import { io } from "../../src/publish/io.ts";

export function errnoException(code: keyof typeof constants.errno, syscall: string, file: string) {
  const messages: Record<string, string> = {
    ENOSPC: "no space left on device",
    EACCES: "permission denied",
    EROFS: "read-only file system",
  };
  const e = new Error(`${code}: ${messages[code] ?? code}, ${syscall} '${file}'`) as NodeJS.ErrnoException;
  e.errno = -constants.errno[code];
  e.code = code;
  e.syscall = syscall;
  e.path = file;
  return e;
}

type IoName = keyof typeof io;

/**
 * Makes `io[name]` throw `code` (as the system call `syscall` would) for the calls whose first
 * argument (a path or fd) matches `when`, and otherwise behave as usual. Returns the spy; restore it with mockRestore().
 */
export function failWith(
  name: IoName,
  code: keyof typeof constants.errno,
  when: (first: unknown) => boolean = () => true,
  syscall = String(name).replace(/Sync$/, ""),
) {
  const original = io[name] as (...args: unknown[]) => unknown;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return vi.spyOn(io, name as any).mockImplementation((...args: unknown[]) => {
    if (when(args[0])) throw errnoException(code, syscall, String(args[0]));
    return original(...args);
  });
}

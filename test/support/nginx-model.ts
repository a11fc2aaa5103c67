// A model of how nginx picks the location of a request in our nginx.conf, and what that location
// sends: enough to check the file's behaviour (which file a URL serves, with which headers)
// against the preview's resolver, without pinning its text. nginx's order: an exact match (`=`)
// wins; else the longest prefix, whose nested locations are searched first, then the regular
// expressions of the level in the order written; else the prefix itself.

export interface Location {
  modifier: "=" | "~" | "";
  pattern: string;
  /** Directives of this block, nested blocks excluded, without their trailing `;`. */
  directives: string[];
  children: Location[];
}

/** Unquotes an nginx string argument. */
function unquote(s: string): string {
  return s.startsWith('"') ? s.slice(1, -1).replace(/\\\\/g, "\\") : s;
}

/** The location tree of a server-level nginx configuration text. */
export function parseLocations(conf: string): Location[] {
  const root: Location = { modifier: "", pattern: "", directives: [], children: [] };
  const stack = [root];
  for (const raw of conf.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const open = /^location\s+(?:(=|~)\s+)?("(?:[^"\\]|\\.)*"|\S+)\s*\{$/.exec(line);
    if (open) {
      const loc: Location = {
        modifier: (open[1] ?? "") as Location["modifier"],
        pattern: unquote(open[2]!),
        directives: [],
        children: [],
      };
      stack.at(-1)!.children.push(loc);
      stack.push(loc);
    } else if (line === "}") stack.pop();
    else if (line.endsWith("{")) stack.push({ modifier: "", pattern: "", directives: [], children: [] });
    else stack.at(-1)!.directives.push(line.replace(/;$/, ""));
  }
  return root.children;
}

export interface Match {
  location: Location;
  /** Named captures of the regular expression, `build_api_path` among them. */
  vars: Record<string, string>;
}

function regexMatch(loc: Location, path: string): Match | undefined {
  const m = new RegExp(loc.pattern).exec(path);
  return m ? { location: loc, vars: { ...m.groups } } : undefined;
}

/** The location nginx picks for `path` among `locations`, as its documentation states. */
export function selectLocation(locations: readonly Location[], path: string): Match | undefined {
  const exact = locations.find((l) => l.modifier === "=" && l.pattern === path);
  if (exact) return { location: exact, vars: {} };
  const prefix = locations
    .filter((l) => l.modifier === "" && path.startsWith(l.pattern))
    .sort((a, b) => b.pattern.length - a.pattern.length)[0];
  const nested = prefix ? selectLocation(prefix.children, path) : undefined;
  if (nested && nested.location.modifier !== "") return nested;
  for (const loc of locations.filter((l) => l.modifier === "~")) {
    const m = regexMatch(loc, path);
    if (m) return m;
  }
  return nested ?? (prefix ? { location: prefix, vars: {} } : undefined);
}

/** `$name` and `${name}` replaced by `vars` (a variable not given stays as written). */
export function substitute(text: string, vars: Record<string, string>): string {
  return text.replace(/\$\{?(\w+)\}?/g, (whole, name: string) => vars[name] ?? whole);
}

/** The status of the location's first `if ($var) { return N; }` whose variable is set. */
export function ifReturn(match: Match, vars: Record<string, string>): number | undefined {
  for (const d of match.location.directives) {
    const m = /^if \(\$(\w+)\) \{ return (\d+); \}$/.exec(d);
    const value = m ? vars[m[1]!] : undefined;
    if (m && value !== undefined && value !== "" && value !== "0") return Number(m[2]);
  }
  return undefined;
}

/** The location's captures in front of `vars` (which may compute its values on demand). */
function withCaptures(match: Match, vars: Record<string, string>): Record<string, string> {
  return new Proxy({} as Record<string, string>, {
    get: (_, name) => (typeof name === "string" ? (match.vars[name] ?? vars[name]) : undefined),
  });
}

/** The headers a location adds (`add_header name value always`), values substituted. */
export function headersOf(match: Match, vars: Record<string, string> = {}): Map<string, string> {
  const all = withCaptures(match, vars);
  const out = new Map<string, string>();
  for (const d of match.location.directives) {
    const m = /^add_header\s+(\S+)\s+("(?:[^"\\]|\\.)*"|\S+)\s+always$/.exec(d);
    if (m) out.set(m[1]!, substitute(unquote(m[2]!), all));
    const t = /^default_type\s+("(?:[^"\\]|\\.)*"|\S+)$/.exec(d);
    if (t) out.set("Content-Type", unquote(t[1]!));
  }
  return out;
}

/** The candidates of the location's `try_files`, substituted; the last is its fallback. */
export function tryFilesOf(match: Match, vars: Record<string, string> = {}): string[] {
  const d = match.location.directives.find((x) => x.startsWith("try_files "));
  return d
    ? d
        .split(/\s+/)
        .slice(1)
        .map((c) => substitute(c, withCaptures(match, vars)))
    : [];
}

interface NginxMap {
  source: string;
  entries: [string, string][];
  fallback: string;
}

/** The `map` blocks of an http-level nginx configuration text, by the variable each defines. */
export function parseMaps(conf: string): Map<string, NginxMap> {
  const maps = new Map<string, NginxMap>();
  for (const [, source, name, body] of conf.matchAll(/^map \$(\w+) \$(\w+) \{\n([\s\S]*?)^\}/gm)) {
    const map: NginxMap = { source: source!, entries: [], fallback: "" };
    for (const [, key, value] of body!.matchAll(
      /^\s*("(?:[^"\\]|\\.)*"|\S+)\s+("(?:[^"\\]|\\.)*"|\S+);$/gm,
    )) {
      if (key === "default") map.fallback = unquote(value!);
      else map.entries.push([unquote(key!), unquote(value!)]);
    }
    maps.set(name!, map);
  }
  return maps;
}

/**
 * The request's variables as nginx computes them: `given` (uri, request_uri, args, the location's
 * captures), `arg_<name>` from args, and every map, evaluated on demand as nginx does.
 */
export function variables(
  maps: Map<string, NginxMap>,
  given: Record<string, string>,
): Record<string, string> {
  const args = new URLSearchParams(given.args ?? "");
  const read = (name: string): string | undefined => {
    if (name in given) return given[name];
    if (name.startsWith("arg_")) return args.get(name.slice(4)) ?? "";
    const map = maps.get(name);
    if (!map) return undefined;
    const input = read(map.source) ?? "";
    const hit = map.entries.find(([key]) =>
      key.startsWith("~") ? new RegExp(key.slice(1)).test(input) : key === input,
    );
    return substitute(hit ? hit[1] : map.fallback, proxy);
  };
  const proxy = new Proxy({} as Record<string, string>, {
    get: (_, name) => (typeof name === "string" ? read(name) : undefined),
  });
  return proxy;
}

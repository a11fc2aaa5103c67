// A small snapshot shaped like the real one, in numbered variants: variant 1 changes three files
// of variant 0, removes one and adds one; the other files are identical.
export function sampleFiles(variant: number): Record<string, string> {
  const files: Record<string, string> = {
    _headers: "/api/*\n  Content-Type: application/json\n",
    "api/public/v1/index.json": JSON.stringify({ version: variant }),
  };
  for (let t = 1; t <= 6; t++) {
    files[`api/public/v1/tournaments/${t}/index.json`] = JSON.stringify({ id: t, name: `Open ${t}` });
    files[`api/public/v1/tournaments/${t}/standings.json`] = JSON.stringify({
      id: t,
      v: t <= 2 ? variant : 0,
    });
  }
  if (variant === 0) files["api/public/v1/old.json"] = "{}";
  else files["api/public/v1/new.json"] = JSON.stringify({ v: variant });
  return files;
}

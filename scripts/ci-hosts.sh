#!/usr/bin/env bash
# Host conformance: builds the sample snapshot, serves it with the preview, nginx (Debian
# nginx-light), `wrangler pages dev`, the deploy's R2 Worker under Miniflare (wrangler's local
# runtime) and `netlify dev`, runs scripts/probe.ts against each, then
# checks CORS in headless Chromium. Every server listens on loopback only and is killed on exit.
# The heavy tools come from the separate npm project scripts/hosts, never the root.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
START=$SECONDS
WORK=$(mktemp -d /tmp/build-api-hosts.XXXXXX)
# nginx workers run as an unprivileged user: they must be able to read the snapshot.
chmod 0755 "$WORK"
SNAP=$WORK/dist
PGIDS=()
RESULTS=()
FAILED=0

cleanup() {
  for pgid in "${PGIDS[@]}"; do kill -TERM -- "-$pgid" 2>/dev/null || true; done
  sleep 1
  for pgid in "${PGIDS[@]}"; do kill -KILL -- "-$pgid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { echo "== [hosts $((SECONDS - START))s] $*"; }

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

# Waits until URL answers (any status), at most $2 seconds.
wait_http() {
  local url=$1 limit=$2 i
  for ((i = 0; i < limit * 2; i++)); do
    if curl -s -o /dev/null --max-time 2 "$url"; then return 0; fi
    sleep 0.5
  done
  echo "no answer from $url after ${limit}s" >&2
  return 1
}

# Starts a command in its own process group (so its children die with it); logs to $WORK/$1.log.
start() {
  local name=$1
  shift
  setsid "$@" >"$WORK/$name.log" 2>&1 &
  PGIDS+=("$!")
}

stop_last() {
  local pgid=${PGIDS[-1]}
  kill -TERM -- "-$pgid" 2>/dev/null || true
  for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 -- "-$pgid" 2>/dev/null || return 0; sleep 0.3; done
  kill -KILL -- "-$pgid" 2>/dev/null || true
}

# probe NAME KIND BASE: one probe run, its summary kept for the end.
probe() {
  local name=$1 kind=$2 base=$3 t0=$SECONDS rc=0
  timeout 300 node scripts/probe.ts --base "$base" --dir "$SNAP" --host-kind "$kind" >"$WORK/probe-$name.txt" 2>&1 || rc=$?
  grep -v '^ok  ' "$WORK/probe-$name.txt" || true
  record "$name" "$rc" "$(tail -n 1 "$WORK/probe-$name.txt")" $((SECONDS - t0))
}

record() {
  RESULTS+=("$1: $3 (exit $2, $4s)")
  if [ "$2" != 0 ]; then FAILED=1; fi
  log "$1: $3 (exit $2)"
}

# --- tools ----------------------------------------------------------------------------------
APT_UPDATED=0
apt_install() {
  if [ "$APT_UPDATED" = 0 ]; then apt-get update -qq; APT_UPDATED=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
command -v nginx >/dev/null || { log "installing nginx-light"; apt_install nginx-light; }
command -v chromium >/dev/null || { log "installing chromium"; apt_install chromium; }
log "npm ci --prefix scripts/hosts (wrangler, netlify-cli, playwright-core)"
npm ci --prefix scripts/hosts --no-audit --no-fund --loglevel=error >/dev/null
BIN=$ROOT/scripts/hosts/node_modules/.bin

# --- snapshot -------------------------------------------------------------------------------
log "building the sample snapshot"
npm run -s sample
node bin/build-api.js build --db data/sample.sqlite --out "$SNAP" --now 2026-11-22T12:00:00Z
# Until the build writes pages, a stand-in page tree (one page per page route, an asset, the
# embed) lets the probe check the page routes; the probe checks whatever pages the snapshot holds.
VERSION_DIR=$(readlink -f "$SNAP")
if [ ! -f "$VERSION_DIR/index.html" ]; then
  log "no pages in the snapshot: planting a stand-in page tree"
  ID=$(ls "$VERSION_DIR/api/public/v1/tournaments" | grep -E '^[0-9]+$' | head -n 1)
  ROUND=$(ls "$VERSION_DIR/api/public/v1/tournaments/$ID/rounds" | head -n 1)
  for p in "" "tournaments/$ID/" "tournaments/$ID/standings/" "tournaments/$ID/rounds/$ROUND/" \
    "tournaments/$ID/live/" "tournaments/$ID/recaps/es/"; do
    mkdir -p "$VERSION_DIR/$p"
    printf '<!doctype html>\n<title>stand-in page /%s</title>\n' "$p" >"$VERSION_DIR/${p}index.html"
  done
  mkdir -p "$VERSION_DIR/assets" "$VERSION_DIR/embed"
  printf 'body{margin:0}\n' >"$VERSION_DIR/assets/site.css"
  printf 'customElements.define("x-stand-in",class extends HTMLElement{});\n' >"$VERSION_DIR/embed/embed.js"
fi
# A symlink planted inside the snapshot, pointing out of it: no host may serve it.
mkdir -p "$VERSION_DIR/assets"
ln -sfn /etc/hostname "$VERSION_DIR/assets/planted-link.css"

# --- under a base path: the sample built with --base-path /chess/ (issue 24.7) ------------------
# The preview serves the snapshot at /chess/ itself. A file host serves it as the folder chess/ of
# its document root (a real directory: `build-api export`), the way docs/guide/subpath.md tells:
# nginx with its root there; wrangler pages dev on a folder holding chess/ and, at its top, the
# host files the worker and Pages read. Paged (--page-size 2) so Link headers are probed too.
# Then the pages check in headless Chromium on nginx under /chess/: links, assets and the embed.
base_path_hosts() {
  local SUB=$WORK/sub DOCROOT=$WORK/docroot PAGESROOT=$WORK/pagesroot BP=chess port inspect t0 rc
  log "building the sample under --base-path /$BP/"
  node bin/build-api.js build --db data/sample.sqlite --out "$SUB" --now 2026-11-22T12:00:00Z \
    --page-size 2 --base-path "/$BP/" >/dev/null
  node bin/build-api.js export --dir "$SUB" --out "$DOCROOT/$BP"
  chmod -R a+rX "$DOCROOT"
  mkdir -p "$PAGESROOT"
  cp -r "$DOCROOT/$BP" "$PAGESROOT/$BP"
  cp "$DOCROOT/$BP/_worker.js" "$DOCROOT/$BP/_headers" "$DOCROOT/$BP/_redirects" "$DOCROOT/$BP/404.html" "$PAGESROOT/"

  port=$(free_port)
  start preview-chess node bin/build-api.js preview --dir "$SUB" --port "$port"
  wait_http "http://127.0.0.1:$port/$BP/" 30
  probe_dir preview-chess preview "http://127.0.0.1:$port" "$SUB"
  stop_last

  port=$(free_port)
  mkdir -p "$NGX/logs" "$NGX/tmp"
  cat >"$NGX/nginx-chess.conf" <<EOF
daemon off;
worker_processes 1;
pid $NGX/nginx-chess.pid;
error_log $NGX/logs/error-chess.log warn;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path $NGX/tmp; proxy_temp_path $NGX/tmp; fastcgi_temp_path $NGX/tmp;
    uwsgi_temp_path $NGX/tmp; scgi_temp_path $NGX/tmp;
    include $DOCROOT/$BP/nginx-http.conf;
    server {
        listen 127.0.0.1:$port;
        root $DOCROOT;
        include $DOCROOT/$BP/nginx.conf;
    }
}
EOF
  nginx -t -q -p "$NGX" -c "$NGX/nginx-chess.conf"
  start nginx-chess nginx -p "$NGX" -c "$NGX/nginx-chess.conf"
  wait_http "http://127.0.0.1:$port/$BP/" 30
  probe_dir nginx-chess nginx "http://127.0.0.1:$port" "$DOCROOT/$BP"
  # A request nginx refuses (`%00`) gets the 400 problem body under /chess/ only: outside it the
  # rest of the server keeps nginx's own 400 page.
  t0=$SECONDS rc=0
  local under outside
  under=$(curl -s -o /dev/null -w '%{http_code} %{content_type}' "http://127.0.0.1:$port/$BP/%00")
  outside=$(curl -s -o /dev/null -w '%{http_code} %{content_type}' "http://127.0.0.1:$port/%00")
  [ "$under" = "400 application/json; charset=utf-8" ] && [ "$outside" = "400 text/html" ] || rc=1
  record nginx-chess-400 "$rc" "/$BP/%00: $under; /%00: $outside" $((SECONDS - t0))
  stop_last

  # The pages check reads the whole public list from its first answer: a snapshot without pages.
  node bin/build-api.js build --db data/sample.sqlite --out "$WORK/sub-pages" --now 2026-11-22T12:00:00Z \
    --base-path "/$BP/" >/dev/null
  node bin/build-api.js export --dir "$WORK/sub-pages" --out "$WORK/docroot-pages/$BP"
  chmod -R a+rX "$WORK/docroot-pages"
  port=$(free_port)
  sed -e "s#$DOCROOT#$WORK/docroot-pages#g" -e "s#listen 127\.0\.0\.1:[0-9]*;#listen 127.0.0.1:$port;#" \
    -e "s#nginx-chess.pid#nginx-chess-pages.pid#" "$NGX/nginx-chess.conf" >"$NGX/nginx-chess-pages.conf"
  nginx -t -q -p "$NGX" -c "$NGX/nginx-chess-pages.conf"
  start nginx-chess-pages nginx -p "$NGX" -c "$NGX/nginx-chess-pages.conf"
  wait_http "http://127.0.0.1:$port/$BP/" 30
  t0=$SECONDS
  rc=0
  timeout 900 node scripts/browser-pages.ts --dir "$WORK/docroot-pages/$BP" --base "http://127.0.0.1:$port/$BP" \
    --club hobsons-bay --label nginx-chess >"$WORK/pages-nginx-chess.txt" 2>&1 || rc=$?
  grep -v '^ok  ' "$WORK/pages-nginx-chess.txt" || true
  record pages-nginx-chess "$rc" "$(tail -n 1 "$WORK/pages-nginx-chess.txt")" $((SECONDS - t0))
  stop_last

  port=$(free_port)
  inspect=$(free_port)
  start wrangler-chess env WRANGLER_SEND_METRICS=false CI=true HOME="$WORK" XDG_CONFIG_HOME="$WORK/.config" \
    "$BIN/wrangler" pages dev "$PAGESROOT" --ip 127.0.0.1 --port "$port" --inspector-port "$inspect" \
    --compatibility-date 2025-01-01
  if wait_http "http://127.0.0.1:$port/$BP/" 120; then
    probe_dir wrangler-chess wrangler "http://127.0.0.1:$port" "$PAGESROOT/$BP"
  else
    tail -n 30 "$WORK/wrangler-chess.log"
    record wrangler-chess 1 "wrangler pages dev did not start" 0
  fi
  stop_last

  # netlify dev on the same folder (chess/ and the host files at its top), in its own network
  # namespace as above.
  netlify_probe netlify-chess "$PAGESROOT" "$PAGESROOT/chess" /chess/
}

# netlify_probe NAME DOCROOT SNAPDIR READY: netlify dev serving DOCROOT, in a network namespace
# whose only interface is loopback (netlify dev cannot bind loopback only), probed for the snapshot
# in SNAPDIR once READY (a URL path) answers.
netlify_probe() {
  local name=$1 docroot=$2 snapdir=$3 ready=$4 site=$WORK/$1-site port t0 rc=0
  mkdir -p "$site"
  printf '[dev]\nframework = "#static"\n' >"$site/netlify.toml"
  port=$(free_port)
  if ! unshare -n true 2>/dev/null; then
    record "$name" 1 "cannot create a network namespace (unshare -n) to keep netlify dev off the network" 0
    return
  fi
  t0=$SECONDS
  timeout 600 unshare -n bash -c '
    set -u
    ip link set lo up 2>/dev/null || true
    cd "$1"
    NETLIFY_TELEMETRY_DISABLED=1 HOME="$2" setsid "$3/netlify" dev --offline --internal-disable-edge-functions \
      --dir "$4" --port "$5" >"$2/$8.log" 2>&1 &
    pid=$!
    trap "kill -TERM -- -$pid 2>/dev/null; sleep 1; kill -KILL -- -$pid 2>/dev/null" EXIT
    for i in $(seq 240); do curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$5$7" && break; sleep 0.5; done
    cd "$6" && node scripts/probe.ts --base "http://127.0.0.1:$5" --dir "$9" --host-kind netlify
  ' netlify-ns "$site" "$WORK" "$BIN" "$docroot" "$port" "$ROOT" "$ready" "$name" "$snapdir" \
    >"$WORK/probe-$name.txt" 2>&1 || rc=$?
  grep -v '^ok  ' "$WORK/probe-$name.txt" | head -n 40 || true
  [ "$rc" = 0 ] || tail -n 20 "$WORK/$name.log" || true
  record "$name" "$rc" "$(tail -n 1 "$WORK/probe-$name.txt")" $((SECONDS - t0))
}

# probe_dir NAME KIND BASE DIR: a probe of the snapshot in DIR (it reads the base path there).
probe_dir() {
  local name=$1 kind=$2 base=$3 dir=$4 t0=$SECONDS rc=0
  timeout 300 node scripts/probe.ts --base "$base" --dir "$dir" --host-kind "$kind" >"$WORK/probe-$name.txt" 2>&1 || rc=$?
  grep -v '^ok  ' "$WORK/probe-$name.txt" || true
  record "$name" "$rc" "$(tail -n 1 "$WORK/probe-$name.txt")" $((SECONDS - t0))
}

summary() {
  echo "== host conformance summary ($((SECONDS - START))s)"
  printf '   %s\n' "${RESULTS[@]}"
}

NGX=$WORK/nginx
# CI_HOSTS_ONLY=base-path: only the hosts under a base path (a quicker run while working on them).
if [ "${CI_HOSTS_ONLY:-}" = base-path ]; then
  base_path_hosts
  summary
  exit "$FAILED"
fi

# --- preview --------------------------------------------------------------------------------
PORT=$(free_port)
start preview node bin/build-api.js preview --dir "$SNAP" --port "$PORT"
wait_http "http://127.0.0.1:$PORT/" 30
probe preview preview "http://127.0.0.1:$PORT"
stop_last

# --- nginx ----------------------------------------------------------------------------------
PORT=$(free_port)
mkdir -p "$NGX/logs" "$NGX/tmp"
cat >"$NGX/nginx.conf" <<EOF
daemon off;
worker_processes 1;
pid $NGX/nginx.pid;
error_log $NGX/logs/error.log warn;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path $NGX/tmp; proxy_temp_path $NGX/tmp; fastcgi_temp_path $NGX/tmp;
    uwsgi_temp_path $NGX/tmp; scgi_temp_path $NGX/tmp;
    include $SNAP/nginx-http.conf;
    server {
        listen 127.0.0.1:$PORT;
        root $SNAP;
        include $SNAP/nginx.conf;
    }
}
EOF
nginx -t -q -p "$NGX" -c "$NGX/nginx.conf"
start nginx nginx -p "$NGX" -c "$NGX/nginx.conf"
wait_http "http://127.0.0.1:$PORT/" 30
probe nginx nginx "http://127.0.0.1:$PORT"
stop_last

# --- Cloudflare Pages: wrangler pages dev (runs the generated _worker.js) ---------------------
PORT=$(free_port)
INSPECT=$(free_port)
start wrangler env WRANGLER_SEND_METRICS=false CI=true HOME="$WORK" XDG_CONFIG_HOME="$WORK/.config" \
  "$BIN/wrangler" pages dev "$SNAP" --ip 127.0.0.1 --port "$PORT" --inspector-port "$INSPECT" \
  --compatibility-date 2025-01-01
if wait_http "http://127.0.0.1:$PORT/" 120; then
  probe wrangler wrangler "http://127.0.0.1:$PORT"
else
  tail -n 30 "$WORK/wrangler.log"
  record wrangler 1 "wrangler pages dev did not start" 0
fi
stop_last

# --- R2 + Cloudflare: the deploy's R2 Worker under wrangler's local runtime (Miniflare/workerd) --
PORT=$(free_port)
start r2-worker node scripts/r2-worker-local.ts --dir "$SNAP" --port "$PORT" --hosts "$ROOT/scripts/hosts"
# The server listens before the bucket is filled: probe once the runner says every object is in.
for _ in $(seq 1 240); do grep -q "^r2 worker at" "$WORK/r2-worker.log" 2>/dev/null && break; sleep 0.5; done
if grep -q "^r2 worker at" "$WORK/r2-worker.log" && wait_http "http://127.0.0.1:$PORT/" 120; then
  probe r2-worker wrangler "http://127.0.0.1:$PORT"
else
  tail -n 30 "$WORK/r2-worker.log"
  record r2-worker 1 "the R2 Worker under Miniflare did not start" 0
fi
stop_last

# --- Netlify: netlify dev --offline ------------------------------------------------------------
# netlify dev listens on every interface and has no option to bind loopback only, so it runs in
# a network namespace of its own whose only interface is loopback, together with its probe.
netlify_probe netlify "$SNAP" "$SNAP" /

# --- a paged snapshot: the same store with --page-size 2 ------------------------------------------
# Every list longer than 2 is split into pages (path forms, ?page=, Link headers): the probe checks
# them on the preview, nginx and wrangler (netlify dev takes minutes to start: it runs once above).
PAGED=$WORK/paged
node bin/build-api.js build --db data/sample.sqlite --out "$PAGED" --now 2026-11-22T12:00:00Z --page-size 2
probe_paged() {
  local name=$1 kind=$2 base=$3 t0=$SECONDS rc=0
  timeout 300 node scripts/probe.ts --base "$base" --dir "$PAGED" --host-kind "$kind" >"$WORK/probe-$name.txt" 2>&1 || rc=$?
  grep -v '^ok  ' "$WORK/probe-$name.txt" || true
  record "$name" "$rc" "$(tail -n 1 "$WORK/probe-$name.txt")" $((SECONDS - t0))
}
PORT=$(free_port)
start preview-paged node bin/build-api.js preview --dir "$PAGED" --port "$PORT"
wait_http "http://127.0.0.1:$PORT/" 30
probe_paged preview-paged preview "http://127.0.0.1:$PORT"
stop_last
PORT=$(free_port)
sed -e "s#$SNAP#$PAGED#g" -e "s#listen 127\.0\.0\.1:[0-9]*;#listen 127.0.0.1:$PORT;#" "$NGX/nginx.conf" >"$NGX/nginx-paged.conf"
nginx -t -q -p "$NGX" -c "$NGX/nginx-paged.conf"
start nginx-paged nginx -p "$NGX" -c "$NGX/nginx-paged.conf"
wait_http "http://127.0.0.1:$PORT/" 30
probe_paged nginx-paged nginx "http://127.0.0.1:$PORT"
stop_last
PORT=$(free_port)
INSPECT=$(free_port)
start wrangler-paged env WRANGLER_SEND_METRICS=false CI=true HOME="$WORK" XDG_CONFIG_HOME="$WORK/.config" \
  "$BIN/wrangler" pages dev "$PAGED" --ip 127.0.0.1 --port "$PORT" --inspector-port "$INSPECT" \
  --compatibility-date 2025-01-01
if wait_http "http://127.0.0.1:$PORT/" 120; then
  probe_paged wrangler-paged wrangler "http://127.0.0.1:$PORT"
else
  record wrangler-paged 1 "wrangler pages dev did not start" 0
fi
stop_last

# --- CORS in a real browser ---------------------------------------------------------------------
t0=$SECONDS
rc=0
timeout 180 node scripts/browser-cors.ts --dir "$SNAP" >"$WORK/chromium.txt" 2>&1 || rc=$?
cat "$WORK/chromium.txt"
record chromium "$rc" "$(tail -n 1 "$WORK/chromium.txt")" $((SECONDS - t0))

# --- every language's layout and the club embed in its language (issue 45) ----------------------
# The sample in the pseudo-locale (longer texts, accents, right-to-left marks): one page of each
# kind at 360 px and 1280 px, none scrolling sideways; the Spanish club's embed under a strict CSP.
t0=$SECONDS
rc=0
node bin/build-api.js build --db data/sample.sqlite --out "$WORK/pseudo" --now 2026-11-22T12:00:00Z \
  --language en-XA >/dev/null 2>&1 || rc=$?
[ "$rc" = 0 ] && { timeout 300 node scripts/browser-i18n.ts --dir "$WORK/pseudo" --label pseudo \
  >"$WORK/i18n.txt" 2>&1 || rc=$?; }
grep -v '^ok  ' "$WORK/i18n.txt" || true
record i18n "$rc" "$(tail -n 1 "$WORK/i18n.txt" 2>/dev/null)" $((SECONDS - t0))

# --- a team event's pages and the team embed (issue 46) ------------------------------------------
# The sample has no team event: the shared team Swiss is imported beside it (a copy of the store),
# and scripts/browser-teams.ts checks the teams page, every team page and the club's team embed at
# 360 px and 1280 px (no sideways scroll, axe-core), writing the team page's screenshots.
t0=$SECONDS
rc=0
cp data/sample.sqlite "$WORK/teams.sqlite"
node bin/build-api.js import-trf test/fixtures/trf/teams/sm-2025-eschlkam-team-swiss.trf --db "$WORK/teams.sqlite" \
  --id 4600 --source-url https://example.org/teams/eschlkam --publish --club hobsons-bay \
  --practice swiss-manager --team-tiebreaks GP,BH:MP --tiebreaks BH,SB --now 2026-11-22T12:00:00Z \
  >/dev/null 2>&1 || rc=$?
[ "$rc" = 0 ] && { node bin/build-api.js build --db "$WORK/teams.sqlite" --out "$WORK/teams" \
  --now 2026-11-22T12:00:00Z >/dev/null 2>&1 || rc=$?; }
[ "$rc" = 0 ] && { timeout 300 node scripts/browser-teams.ts --dir "$WORK/teams" --id 4600 --club hobsons-bay \
  --screenshots "$ROOT/docs/screenshots" >"$WORK/teams.txt" 2>&1 || rc=$?; }
grep -v '^ok  ' "$WORK/teams.txt" 2>/dev/null || true
record teams "$rc" "$(tail -n 1 "$WORK/teams.txt" 2>/dev/null)" $((SECONDS - t0))

# --- the search with no server (issue 47) ---------------------------------------------------------
# The sample names no FIDE-rated player with an accent: a copy of the store writes one who plays in
# two published tournaments as "Pásukov"-style (a mark on the surname's second letter), and
# scripts/browser-search.ts finds them, and a tournament, by four letters typed without the accent.
t0=$SECONDS
rc=0
cp data/sample.sqlite "$WORK/search.sqlite"
node -e '
  const db = new (require("better-sqlite3"))(process.argv[1]);
  const { fide_id } = db.prepare("SELECT fide_id FROM players WHERE fide_id IS NOT NULL GROUP BY fide_id HAVING count(DISTINCT tournament_id) > 1 ORDER BY fide_id LIMIT 1").get();
  db.prepare("UPDATE players SET name = substr(name, 1, 1) || char(225) || substr(name, 3) WHERE fide_id = ?").run(fide_id);
' "$WORK/search.sqlite" || rc=$?
[ "$rc" = 0 ] && { node bin/build-api.js build --db "$WORK/search.sqlite" --out "$WORK/search" \
  --now 2026-11-22T12:00:00Z >/dev/null 2>&1 || rc=$?; }
[ "$rc" = 0 ] && { timeout 300 node scripts/browser-search.ts --dir "$WORK/search" --need-player \
  >"$WORK/search.txt" 2>&1 || rc=$?; }
cat "$WORK/search.txt" 2>/dev/null || true
record search "$rc" "$(tail -n 1 "$WORK/search.txt" 2>/dev/null)" $((SECONDS - t0))

# --- pages and the club embed in a real browser -------------------------------------------------
# scripts/browser-pages.ts against the preview (this run also writes the screenshots that
# docs/guide/pages-and-embed.md shows, to docs/screenshots), then against nginx and wrangler pages dev, started again on the same snapshot.
pages_run() {
  local name=$1 base=$2 t0=$SECONDS rc=0
  shift 2
  timeout 900 node scripts/browser-pages.ts --dir "$SNAP" --base "$base" --club hobsons-bay --label "$name" "$@" \
    >"$WORK/pages-$name.txt" 2>&1 || rc=$?
  grep -v '^ok  ' "$WORK/pages-$name.txt" || true
  record "pages-$name" "$rc" "$(tail -n 1 "$WORK/pages-$name.txt")" $((SECONDS - t0))
}
PORT=$(free_port)
start preview-pages node bin/build-api.js preview --dir "$SNAP" --port "$PORT"
wait_http "http://127.0.0.1:$PORT/" 30
pages_run preview "http://127.0.0.1:$PORT" --screenshots "$ROOT/docs/screenshots"
stop_last
PORT=$(sed -n 's/.*listen 127\.0\.0\.1:\([0-9]*\);.*/\1/p' "$NGX/nginx.conf")
start nginx-pages nginx -p "$NGX" -c "$NGX/nginx.conf"
wait_http "http://127.0.0.1:$PORT/" 30
pages_run nginx "http://127.0.0.1:$PORT"
stop_last
PORT=$(free_port)
INSPECT=$(free_port)
start wrangler-pages env WRANGLER_SEND_METRICS=false CI=true HOME="$WORK" XDG_CONFIG_HOME="$WORK/.config" \
  "$BIN/wrangler" pages dev "$SNAP" --ip 127.0.0.1 --port "$PORT" --inspector-port "$INSPECT" \
  --compatibility-date 2025-01-01
if wait_http "http://127.0.0.1:$PORT/" 120; then
  pages_run wrangler "http://127.0.0.1:$PORT"
else
  record pages-wrangler 1 "wrangler pages dev did not start" 0
fi
stop_last

base_path_hosts

summary
exit "$FAILED"

#!/usr/bin/env bash
# Installs layout-planner_<version>_<arch>.deb into a scratch root (dpkg -x, no root rights needed)
# and checks it from there: the files a desktop install needs, the package's metadata, the CLI, the
# GUI's --screenshot (offscreen), and desktop-file-validate / appstreamcli validate when installed.
#   test_deb.sh BUILD_DIR VERSION WITH_GUI(0|1)
# Exit 0: passed; 1: failed; 77: skipped (no .deb in BUILD_DIR; LP_REQUIRE_DEB=1 makes that a failure).
set -uo pipefail

BUILD=${1:?usage: test_deb.sh BUILD_DIR VERSION WITH_GUI}
VERSION=${2:?version}
WITH_GUI=${3:-1}
APP_ID=io.github.layoutplanner.LayoutPlanner

shopt -s nullglob
debs=("$BUILD"/layout-planner_"$VERSION"_*.deb)
if ((${#debs[@]} == 0)); then
  if [ "${LP_REQUIRE_DEB:-0}" = 1 ]; then
    echo "FAILED: no layout-planner_${VERSION}_*.deb in $BUILD (LP_REQUIRE_DEB=1)"
    exit 1
  fi
  echo "SKIPPED: no layout-planner_${VERSION}_*.deb in $BUILD; run ./dev package (or cpack -G DEB) first"
  exit 77
fi
DEB=${debs[0]}
echo "package: $DEB"

ROOT=$(mktemp -d "${TMPDIR:-/tmp}/lp-deb-root.XXXXXX")
trap 'rm -rf "$ROOT"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok:   $*"; }
have() { command -v "$1" >/dev/null 2>&1; }

dpkg-deb --info "$DEB" >/dev/null || { echo "FAILED: $DEB is not a Debian package"; exit 1; }
dpkg -x "$DEB" "$ROOT" || { echo "FAILED: dpkg -x $DEB"; exit 1; }

# --- package metadata -----------------------------------------------------------------------------
field() { dpkg-deb --field "$DEB" "$1"; }
[ "$(field Package)" = layout-planner ] && pass "Package: layout-planner" || fail "Package is '$(field Package)'"
[ "$(field Version)" = "$VERSION" ] && pass "Version: $VERSION" || fail "Version is '$(field Version)', CMake says $VERSION"
[ "$(field Section)" = science ] && pass "Section: science" || fail "Section is '$(field Section)'"
[ -n "$(field Maintainer)" ] && pass "Maintainer: $(field Maintainer)" || fail "no Maintainer"
[ -n "$(field Description)" ] && pass "has a Description" || fail "no Description"
depends=$(field Depends)
echo "      Depends: $depends"
for lib in libc6 libstdc++6; do
  [[ $depends == *"$lib"* ]] && pass "Depends names $lib (dpkg-shlibdeps)" || fail "Depends lacks $lib"
done
if [ "$WITH_GUI" = 1 ]; then
  for lib in libqt6core6 libqt6gui6 libqt6widgets6 libqt6charts6 libqt6svg6; do
    [[ $depends == *"$lib"* ]] && pass "Depends names $lib" || fail "Depends lacks $lib (is CPACK_DEBIAN_PACKAGE_SHLIBDEPS on?)"
  done
fi

# --- files ----------------------------------------------------------------------------------------
expect=(usr/bin/layout-planner-cli
        usr/share/man/man1/layout-planner-cli.1.gz
        usr/share/doc/layout-planner/README.md
        usr/share/doc/layout-planner/docs/cli.md
        usr/share/doc/layout-planner/docs/formats.md
        usr/share/layout-planner/validation/more-published-runs.json
        usr/share/layout-planner/validation/llm-foundry-runs.json
        usr/share/layout-planner/validation/vtrain-runs.json
        usr/share/layout-planner/validation/megatron-bridge-moe-runs.json
        usr/share/layout-planner/validation/dgxc-benchmarking-runs.json
        usr/share/layout-planner/validation/landmark-runs.json
        usr/share/layout-planner/validation/pytorch-fsdp-runs.json)
if [ "$WITH_GUI" = 1 ]; then
  expect+=(usr/bin/layout-planner
           usr/share/applications/$APP_ID.desktop
           usr/share/metainfo/$APP_ID.metainfo.xml
           usr/share/icons/hicolor/scalable/apps/$APP_ID.svg)
  for s in 16 22 24 32 48 64 128 256; do expect+=(usr/share/icons/hicolor/${s}x${s}/apps/$APP_ID.png); done
fi
for f in "${expect[@]}"; do
  [ -f "$ROOT/$f" ] && pass "/$f" || fail "/$f is missing"
done
for f in "$ROOT"/usr/bin/*; do
  [ -x "$f" ] || fail "${f#"$ROOT"} is not executable"
  if have readelf; then
    rpath=$(readelf -d "$f" | grep -E 'R(UN)?PATH' || true)
    [ -z "$rpath" ] && pass "${f#"$ROOT"} has no RPATH/RUNPATH" || fail "${f#"$ROOT"} has $rpath"
  fi
done
if [ -f "$ROOT/usr/share/man/man1/layout-planner-cli.1.gz" ]; then
  man_text=$(gzip -dc "$ROOT/usr/share/man/man1/layout-planner-cli.1.gz") || fail "the man page is not valid gzip"
  [[ $man_text == *"Layout Planner $VERSION"* ]] && pass "the man page names version $VERSION" \
    || fail "the man page does not name version $VERSION"
  if have groff; then
    warnings=$(printf '%s\n' "$man_text" | groff -man -ww -z 2>&1)
    [ -z "$warnings" ] && pass "groff -man -ww: no warnings" || fail "groff warns about the man page: $warnings"
  fi
fi

# --- the CLI, run from the scratch root -----------------------------------------------------------
CLI=$ROOT/usr/bin/layout-planner-cli
if [ -x "$CLI" ]; then
  out=$("$CLI" --version 2>&1)
  [ "$out" = "layout-planner-cli $VERSION" ] && pass "layout-planner-cli --version: $out" \
    || fail "layout-planner-cli --version printed '$out', expected 'layout-planner-cli $VERSION'"
  json=$("$CLI" evaluate --json 2>"$ROOT/evaluate.err")
  rc=$?
  if [ $rc -ne 0 ]; then
    fail "layout-planner-cli evaluate --json exited $rc: $(cat "$ROOT/evaluate.err")"
  elif have python3; then
    if printf '%s' "$json" | python3 -c '
import json, sys
plan = json.load(sys.stdin)
assert plan["valid"] is True, "valid is not true"
assert plan["layout"]["gpus"] == 64, "the default scenario is not on 64 GPUs"
assert 0 < plan["mfu"] < 1, "mfu out of (0, 1)"
assert plan["memory"]["stages"], "no memory stages"
'; then pass "layout-planner-cli evaluate --json: a valid plan of the default scenario"
    else fail "layout-planner-cli evaluate --json printed an unexpected object"; fi
  else
    [[ $json == *'"valid": true'* || $json == *'"valid":true'* ]] && pass "evaluate --json: valid plan" \
      || fail "evaluate --json printed no valid plan"
  fi
  "$CLI" presets gpus >/dev/null 2>&1 && pass "layout-planner-cli presets gpus" || fail "layout-planner-cli presets gpus failed"
  # The installed sets of published runs validate with the installed CLI.
  set_file=$ROOT/usr/share/layout-planner/validation/more-published-runs.json
  if [ -f "$set_file" ]; then
    "$CLI" validate "$set_file" >/dev/null 2>"$ROOT/validate.err" && pass "layout-planner-cli validate (installed set)" \
      || fail "layout-planner-cli validate of the installed set failed: $(cat "$ROOT/validate.err")"
  fi
fi

# --- the GUI, offscreen ---------------------------------------------------------------------------
GUI=$ROOT/usr/bin/layout-planner
if [ "$WITH_GUI" = 1 ] && [ -x "$GUI" ]; then
  # A private HOME and XDG dirs: the screenshot must not read or write the user's settings.
  export HOME=$ROOT/home XDG_CONFIG_HOME=$ROOT/home/.config XDG_DATA_HOME=$ROOT/home/.local/share \
         XDG_CACHE_HOME=$ROOT/home/.cache XDG_RUNTIME_DIR=$ROOT/run
  mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
  out=$(QT_QPA_PLATFORM=offscreen "$GUI" --version 2>&1)
  [[ $out == *"$VERSION"* ]] && pass "layout-planner --version: $out" \
    || fail "layout-planner --version printed '$out', expected $VERSION"
  shot=$ROOT/screenshot.png
  if QT_QPA_PLATFORM=offscreen timeout 120 "$GUI" --screenshot "$shot" --size 1280x800 >"$ROOT/gui.log" 2>&1; then
    magic=$(head -c 8 "$shot" 2>/dev/null | od -An -tx1 | tr -d ' \n')
    size=$(stat -c %s "$shot" 2>/dev/null || echo 0)
    if [ "$magic" = 89504e470d0a1a0a ] && [ "$size" -gt 10000 ]; then
      pass "layout-planner --screenshot (offscreen): a ${size}-byte PNG"
      [ -n "${LP_KEEP_SCREENSHOT:-}" ] && cp "$shot" "$LP_KEEP_SCREENSHOT"
    else
      fail "layout-planner --screenshot wrote no PNG (magic $magic, $size bytes)"
    fi
  else
    fail "layout-planner --screenshot failed: $(tail -n 20 "$ROOT/gui.log")"
  fi
fi

# --- validators -----------------------------------------------------------------------------------
if [ "$WITH_GUI" = 1 ]; then
  desktop=$ROOT/usr/share/applications/$APP_ID.desktop
  metainfo=$ROOT/usr/share/metainfo/$APP_ID.metainfo.xml
  if have desktop-file-validate; then
    desktop-file-validate "$desktop" && pass "desktop-file-validate" || fail "desktop-file-validate"
  else
    echo "note: desktop-file-validate not installed (desktop-file-utils); not run"
  fi
  if have appstreamcli; then
    appstreamcli validate --no-net "$metainfo" && pass "appstreamcli validate --no-net" \
      || fail "appstreamcli validate --no-net"
    # The installed tree as a whole: the metainfo's launchable desktop entry is there too.
    appstreamcli validate-tree --no-net "$ROOT" && pass "appstreamcli validate-tree --no-net" \
      || fail "appstreamcli validate-tree --no-net"
  else
    echo "note: appstreamcli not installed (appstream); not run"
  fi
  grep -q "<release version=\"$VERSION\"" "$metainfo" && pass "metainfo release $VERSION" \
    || fail "the metainfo has no <release version=\"$VERSION\">"
  grep -q "^Exec=layout-planner\b" "$desktop" && pass "desktop entry runs layout-planner" \
    || fail "the desktop entry's Exec is not layout-planner"
  grep -q "^Icon=$APP_ID$" "$desktop" && pass "desktop entry icon $APP_ID" || fail "the desktop entry's Icon is not $APP_ID"
fi

if ((failures)); then
  echo "FAILED: $failures check(s)"
  exit 1
fi
echo "PASSED: $DEB"

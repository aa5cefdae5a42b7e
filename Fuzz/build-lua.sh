#!/usr/bin/env bash
# Builds Lua 5.4 from source with AddressSanitizer into a static liblua5.4.a, so that
# the fuzzers see inside Lua too: the system liblua5.4 is not instrumented, and a write
# through a dangling pointer inside it goes unseen.
#
#   Fuzz/build-lua.sh SOURCE OUTPUT_DIR
#
# SOURCE is a Lua source tree (lapi.c ... at its top, as lua/lua's repository and
# lua.org's src/ folder have them) or a git directory of lua/lua, whose tag v5.4.4 (the
# version Debian 12 ships) is checked out. Nothing is downloaded; for example:
#
#   git clone --depth 1 --branch v5.4.4 https://github.com/lua/lua /tmp/lua
#
# The library is built as Debian builds it (LUA_COMPAT_5_3, LUA_USE_LINUX), so the
# system headers the package compiles against describe it. OUTPUT_DIR/pkgconfig gets a
# lua5.4.pc that names it; run.sh puts that first on PKG_CONFIG_PATH.
set -euo pipefail

source="${1:?usage: build-lua.sh SOURCE OUTPUT_DIR}"
output="${2:?usage: build-lua.sh SOURCE OUTPUT_DIR}"
mkdir -p "$output"
output="$(cd "$output" && pwd)"

tree="$source"
if [ ! -f "$source/lapi.c" ]; then
  tree="$output/src"
  rm -rf "$tree" && mkdir -p "$tree"
  git --git-dir="$source" archive v5.4.4 | tar -x -C "$tree"
fi
[ -f "$tree/lapi.c" ] || { echo "no Lua sources (lapi.c) in $source" >&2; exit 64; }

# The library only: not the stand-alone interpreter or compiler, nor Lua's own test
# library and one-file build.
objects=()
for file in "$tree"/*.c; do
  case "$(basename "$file")" in lua.c | luac.c | onelua.c | ltests.c) continue ;; esac
  object="$output/$(basename "$file" .c).o"
  clang -c -O1 -g -fno-omit-frame-pointer -fsanitize=address -DLUA_COMPAT_5_3 -DLUA_USE_LINUX \
    -I"$tree" "$file" -o "$object"
  objects+=("$object")
done
rm -f "$output/liblua5.4.a"
ar rcs "$output/liblua5.4.a" "${objects[@]}"
rm -f "${objects[@]}"
# SwiftPM links the CLua system library by what pkg-config says of lua5.4: this one names
# the folder of the static library, and PKG_CONFIG_PATH=$output/pkgconfig puts it first.
mkdir -p "$output/pkgconfig"
cat > "$output/pkgconfig/lua5.4.pc" <<PC
Name: Lua
Description: Lua 5.4.4 built with AddressSanitizer for droprules' fuzzers
Version: 5.4.4
Libs: -L$output -llua5.4 -lm
Cflags: -I/usr/include/lua5.4
PC
echo "$output/liblua5.4.a"

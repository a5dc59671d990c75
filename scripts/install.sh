#!/usr/bin/env bash
# Builds shade for release (about 9× faster than the debug build `swift run` makes) and installs it
# as PREFIX/bin/shade. PREFIX is the first argument, else $PREFIX, else ~/.local.
#   scripts/install.sh                 # ~/.local/bin/shade
#   scripts/install.sh /usr/local      # /usr/local/bin/shade (may need sudo)
# The Swift runtime is linked in, so the installed binary does not need the toolchain.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${1:-${PREFIX:-$HOME/.local}}"
swift build -c release --product shade --static-swift-stdlib
bin="$(swift build -c release --show-bin-path)"
install -d "$prefix/bin"
install -m 0755 "$bin/shade" "$prefix/bin/shade"
echo "installed $prefix/bin/shade"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "$prefix/bin is not on your PATH; add it with: export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
echo "shell completions: shade completions --help"

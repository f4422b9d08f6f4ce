#!/bin/sh
# Install the Debian packages labrat needs to build, test and run the simulated
# lab.  Idempotent: when every package is present it does nothing at all.
# clang and libclang-rt-dev (libFuzzer, the sanitizer runtimes) are for the
# fuzz build only (scripts/build.sh fuzz); the other builds use gcc.
# groff-base, man-db and systemd are for the install tests: labrat(1)
# rendered, and `systemd-analyze verify` of labrat.service (no running
# systemd needed).
set -eu

PKGS="build-essential cmake pkg-config git
libssh2-1-dev libjson-c-dev libcurl4-openssl-dev libsqlite3-dev libmicrohttpd-dev
libcmocka-dev sqlite3 zlib1g-dev
openssh-server openssh-client iperf iperf3 nftables ethtool iproute2 procps iputils-ping
psmisc util-linux kmod jq tzdata
groff-base man-db systemd
python3-jsonschema
clang libclang-rt-dev
chromium nodejs"

# One dpkg-query for all of them (a package it does not know is simply
# not in its output).
# shellcheck disable=SC2086
have=$(dpkg-query -W -f='${Package} ${Status}\n' $PKGS 2>/dev/null |
    awk '/ install ok installed$/ { print $1 }' | tr '\n' ' ') || :
missing=""
for p in $PKGS; do
	case " $have " in
	*" $p "*) ;;
	*) missing="$missing $p" ;;
	esac
done

# web/node_modules from the lock file: again only when the lock changed
# (its SHA-256 is kept in web/node_modules/.labrat-lock.sha256).
npm_deps() {
	web=$(cd "$(dirname "$0")/.." && pwd)/web
	[ -f "$web/package-lock.json" ] || return 0
	want=$(sha256sum "$web/package-lock.json" | cut -d' ' -f1)
	stamp=$web/node_modules/.labrat-lock.sha256
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
		return 0
	fi
	if ! command -v npm >/dev/null 2>&1; then
		echo "install-deps: npm not found (Debian package nodejs or npm)" >&2
		return 1
	fi
	echo "install-deps: npm ci --prefix web" >&2
	# --ignore-scripts: no package may run code at install time (none
	# needs to; playwright-core uses the system chromium).
	npm ci --prefix "$web" --ignore-scripts --no-audit --no-fund >&2
	echo "$want" > "$stamp"
}

if [ -z "$missing" ]; then
	npm_deps
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages:$missing (run as root to install them)" >&2
	exit 1
fi
echo "install-deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# Keep package scripts from starting services (sshd, iperf) on the host itself.
policy=/usr/sbin/policy-rc.d
made_policy=0
if [ ! -e "$policy" ]; then
	printf '#!/bin/sh\nexit 101\n' > "$policy"
	chmod 755 "$policy"
	made_policy=1
fi
trap '[ "$made_policy" -eq 1 ] && rm -f "$policy"' EXIT
apt-get update -qq
# iperf3 asks a debconf question about starting a daemon: answer no.
echo "iperf3 iperf3/start_daemon boolean false" | debconf-set-selections
apt-get install -y -qq --no-install-recommends $missing >/dev/null
# Debian's nodejs ships npm as its own package; some node builds bundle it.
if ! command -v npm >/dev/null 2>&1; then
	apt-get install -y -qq --no-install-recommends npm >/dev/null
fi
npm_deps

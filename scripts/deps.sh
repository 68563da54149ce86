#!/bin/sh
# deps.sh — install the Debian packages runledger needs, only those missing.
# Run as root (CI is root); prints what it installs and nothing else otherwise.
set -e
pkgs="build-essential pkg-config sqlite3 libsqlite3-dev libjansson-dev libcsv-dev
libcmark-gfm-dev libcmark-gfm-extensions-dev libgit2-dev git gnuplot-nox jq
groff-base man-db libpq-dev postgresql-15 python3-numpy"
# libpq-dev: PostgreSQL ledgers (docs/postgres.md); postgresql-15: the
# server binaries for the throwaway server each PostgreSQL test starts itself
# (tests/lib-pg.sh); the tests need no running service; python3-numpy: the
# PyTorch side-by-side script's data and schedule code, checked against the
# trainer's (tests/t-trainer-torch-budget.sh)
[ -n "$RUNLEDGER_WITH_BROWSER" ] && pkgs="$pkgs chromium"
# make fuzz (docs/fuzzing.md): clang and its libFuzzer runtime (Debian 12)
[ -n "$RUNLEDGER_WITH_FUZZ" ] && pkgs="$pkgs clang libclang-rt-14-dev"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps: installing:$missing"
if [ "$(id -u)" != 0 ]; then
	echo "deps: need root to install packages; run: sudo apt-get install$missing" >&2
	exit 2
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends $missing >/dev/null

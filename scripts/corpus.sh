#!/bin/sh
# corpus.sh — the >= 50 MB English corpus for GPU benchmarks (`make corpus`):
# the Linux kernel's Documentation tree (Debian linux-source-6.1), the
# reStructuredText sources of the Python manual (python3.11-doc) and Perl's
# POD manual (perl-doc), cleaned and split by `trainer prepare-data` into
# data/docs-en (override with CORPUS_OUT). Debian 12: 9,572 files, 55.9 MB
# train + 6.0 MB validation, about 15 s once the packages are there.
# Installs the three packages when a source is missing (as root), else says
# how. Usage: sh scripts/corpus.sh (from anywhere; BUILD names the build
# dir, CORPUS_OUT the output, CORPUS_LINUX_TARBALL / CORPUS_PYTHON_DOC /
# CORPUS_PERL_POD the sources).
set -e
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
OUT=${CORPUS_OUT:-data/docs-en}
TRAINER="$BUILD/trainer"
pkgs="linux-source-6.1 python3.11-doc perl-doc"

# The three sources; each can be pointed elsewhere (tests use small fakes).
tarball=${CORPUS_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
pydoc=${CORPUS_PYTHON_DOC:-/usr/share/doc/python3.11/html/_sources}
pod=${CORPUS_PERL_POD:-/usr/share/perl/5.36/pod}

[ -x "$TRAINER" ] || { echo "corpus: $TRAINER is missing; run make first" >&2; exit 2; }
have_sources() { [ -e "$tarball" ] && [ -e "$pydoc" ] && [ -e "$pod" ]; }
if ! have_sources; then
	missing=""
	for p in $pkgs; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		if [ "$(id -u)" != 0 ]; then
			echo "corpus: missing Debian packages:$missing" >&2
			echo "corpus: hint: sudo apt-get install$missing, then run this again" >&2
			exit 2
		fi
		echo "corpus: installing:$missing (about 160 MB to download)" >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
	fi
fi
for src in "$tarball" "$pydoc" "$pod"; do
	[ -e "$src" ] || { echo "corpus: $src is missing although its package is installed" >&2; exit 3; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/corpus.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
echo "corpus: 1/2 extracting Documentation/ from $tarball" >&2
tar -xJf "$tarball" -C "$tmp" linux-source-6.1/Documentation
echo "corpus: 2/2 preparing $OUT" >&2
"$TRAINER" prepare-data --out "$OUT" --name docs-en \
	"$tmp/linux-source-6.1/Documentation" "$pydoc" "$pod"
echo "corpus: done; train with: $TRAINER data.path=$OUT" >&2

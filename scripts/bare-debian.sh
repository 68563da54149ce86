#!/bin/sh
# bare-debian.sh — run the README's two commands in a bare Debian 12 root
# (debootstrap minbase), as a fresh machine would. CI runs it first, so an
# install step that `make deps` lacks fails CI instead of hiding behind the
# packages this machine already has (jq once did: 25 tests failed on a
# bare root while CI passed). Needs root and the Debian package mirror.
#   sh scripts/bare-debian.sh            a new root under /tmp, removed after
#   KEEP=1 sh scripts/bare-debian.sh     keep it (its path is printed)
# The commands are read from the README's first ```sh block, so the README
# and what is tested cannot drift apart.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" = 0 ] || { echo "bare-debian: needs root (debootstrap, chroot, mount)" >&2; exit 2; }

readme_commands() { # the first ```sh block, comments and blank lines dropped
	awk '/^```sh$/ { on = 1; next } on && /^```/ { exit } on' "$here/README.md" |
		sed 's/[[:space:]]*#.*$//' | grep -v '^[[:space:]]*$'
}
cmds=$(readme_commands)
[ -n "$cmds" ] || { echo "bare-debian: no \`\`\`sh block at the top of README.md" >&2; exit 2; }

if ! command -v debootstrap >/dev/null 2>&1; then
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi
root=$(mktemp -d /tmp/runledger-bare.XXXXXX)
chmod 755 "$root" # it becomes /: mktemp's 0700 would lock every other user out of it
cleanup() {
	umount "$root/dev/pts" 2>/dev/null || true
	umount "$root/proc" 2>/dev/null || true
	if [ -z "${KEEP:-}" ]; then rm -rf "$root"; else echo "bare-debian: kept $root"; fi
}
trap cleanup EXIT INT TERM

echo "bare-debian: debootstrap --variant=minbase bookworm $root"
if ! debootstrap --variant=minbase bookworm "$root" >"$root.log" 2>&1; then
	tail -n 20 "$root.log" >&2
	exit 3
fi
rm -f "$root.log"
cp /etc/resolv.conf "$root/etc/resolv.conf"
git clone -q "$here" "$root/root/runledger"
# /proc for /proc/self/exe (a unit test re-runs itself) and a private
# devpts for script(1), which the progress-line tests run under
mount -t proc proc "$root/proc"
mount -t devpts devpts "$root/dev/pts" -o newinstance,ptmxmode=0666

printf '%s\n' "$cmds" | while IFS= read -r cmd; do
	echo "bare-debian: \$ $cmd"
	chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/sh -c "cd /root/runledger && $cmd" </dev/null || {
		echo "bare-debian: failed in a bare Debian 12 root: $cmd" >&2
		exit 1
	}
done
echo "bare-debian: the README's commands passed in a bare Debian 12 root"

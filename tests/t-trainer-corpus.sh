# t-trainer-corpus.sh — scripts/corpus.sh (`make corpus`) on small fakes of
# its three sources, so that no package is needed: a linux-source tarball
# whose Documentation/ holds two texts and an image, a Python _sources
# directory, a Perl pod directory. Test plan: the corpus is built from the
# Documentation tree only (not the rest of the tarball) plus the two
# manuals, the binary is dropped, the byte counts add up, and a second build
# gives the same manifest.
. "$ROOT/tests/lib.sh"
mkdir -p src/linux-source-6.1/Documentation/admin src/linux-source-6.1/kernel pydoc pod
# lines TEXT: thirty numbered lines, enough for each file to give both
# splits a part (prepare-data splits every document at a line break)
lines() { i=0; while [ $i -lt 30 ]; do echo "$1, line $i."; i=$((i + 1)); done; }
lines 'The kernel documentation' >src/linux-source-6.1/Documentation/index.rst
lines 'Admin guide text' >src/linux-source-6.1/Documentation/admin/guide.rst
printf '\211PNG\r\n\032\n\000\000' >src/linux-source-6.1/Documentation/logo.png
printf 'int main(void) { return 0; }\n' >src/linux-source-6.1/kernel/not-documentation.c
lines 'Python tutorial' >pydoc/tutorial.rst.txt
lines '=head1 perlintro' >pod/perlintro.pod
tar -cJf linux.tar.xz -C src linux-source-6.1

corpus() {
	CORPUS_OUT="$PWD/$1" CORPUS_LINUX_TARBALL="$PWD/linux.tar.xz" CORPUS_PYTHON_DOC="$PWD/pydoc" \
		CORPUS_PERL_POD="$PWD/pod" sh "$ROOT/scripts/corpus.sh"
}
expect_code trainer-corpus-1 "builds from the three sources" 0 corpus out
expect_match trainer-corpus-2 "four text files kept, the image dropped" "$err" \
	"^trainer: prepare-data: .*out: 4 files kept, 1 dropped, [0-9]+ train \+ [0-9]+ val bytes$"
want=$(cat src/linux-source-6.1/Documentation/index.rst src/linux-source-6.1/Documentation/admin/guide.rst \
	pydoc/tutorial.rst.txt pod/perlintro.pod | wc -c)
got=$(sed -n 's/.* \([0-9][0-9]*\) train + \([0-9][0-9]*\) val bytes$/\1 \2/p' stderr.txt | awk '{ print $1 + $2 }')
expect_eq trainer-corpus-3 "train + val bytes are the Documentation and manual texts, nothing else" "$want" "$got"
expect_eq trainer-corpus-4 "the data set is named docs-en" "docs-en" \
	"$(sed -n 's/^ *"name": "\(.*\)",*$/\1/p' out/manifest.json | head -n 1)"
corpus again >/dev/null 2>&1
expect_eq trainer-corpus-5 "the same sources give the same manifest" \
	"$(sha256sum <out/manifest.json)" "$(sha256sum <again/manifest.json)"

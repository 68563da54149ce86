# t-trainer-data.sh — `trainer prepare-data` and the shard format (data.h).
# Test plan: a small source tree with CRLF and lone-CR text, a binary file,
# invalid UTF-8, a symbolic link and a subdirectory; the exact cleaned
# bytes of each split, the 64-byte header fields, the manifest's sha256
# against sha256sum, byte-identical output on a second run, and a tampered
# shard refused by the trainer (crash in phase data, exit 3).
. "$ROOT/tests/lib.sh"

mkdir -p src/sub
printf 'aaaa\r\nbbbb\r\ncccc\r\ndddd\r\n' >src/a.txt
printf 'ELF\000\001\002binary' >src/b.bin
printf 'caf\351 latin-1, not UTF-8\n' >src/c.txt
printf 'p\rq' >src/sub/d.txt
ln -s a.txt src/link.txt

expect_code data-1.1 "prepare-data --help exits 0" 0 "$TRAINER" prepare-data --help
expect_match data-1.2 "usage line" "$(head -n 1 stdout.txt)" '^usage: trainer prepare-data'
expect_code data-1.3 "no SOURCE is a usage error" 2 "$TRAINER" prepare-data --out x
expect_code data-1.4 "a missing SOURCE is a usage error" 2 "$TRAINER" prepare-data --out x nothing-here

expect_code data-2.1 "prepare-data exits 0" 0 "$TRAINER" prepare-data --out d --name tiny --val-fraction 0.5 src
expect_eq data-2.2 "summary on stderr" "trainer: prepare-data: d: 2 files kept, 2 dropped, 19 train + 5 val bytes" "$err"
expect_eq data-2.3 "train split: cleaned text, in path order" "$(printf 'aaaa\nbbbb\ncccc\np\nq\n' | od -c)" \
	"$(tail -c +65 d/train_000.bin | od -c)"
expect_eq data-2.4 "val split: the tail of each document" "$(printf 'dddd\n' | od -c)" "$(tail -c +65 d/val_000.bin | od -c)"
expect_eq data-2.5 "header: magic, version 1, width 1, vocab 256, split 1, count 5" \
	"RLSHARD 1 1 256 1 5" \
	"$(head -c 7 d/val_000.bin) $(od -An -tu4 -j8 -N16 d/val_000.bin | tr -s ' ' | sed 's/^ //') $(od -An -tu8 -j24 -N8 d/val_000.bin | tr -d ' ')"
want=$(sha256sum d/train_000.bin | cut -c1-64)
expect_match data-2.6 "manifest holds the shard's sha256" "$(cat d/manifest.json)" "\"sha256\": \"$want\""
expect_match data-2.7 "manifest name" "$(cat d/manifest.json)" '"name": "tiny"'
cp d/manifest.json first.json
"$TRAINER" prepare-data --out d --name tiny --val-fraction 0.5 src 2>/dev/null
expect_eq data-2.8 "deterministic: same manifest twice" "$(cat first.json)" "$(cat d/manifest.json)"

expect_code data-2.9 "--max-bytes stops after enough text" 0 "$TRAINER" prepare-data --out m \
	--val-fraction 0.5 --max-bytes 10 src
expect_eq data-2.10 "--max-bytes: one document taken" \
	"trainer: prepare-data: m: 1 files kept, 0 dropped, 15 train + 5 val bytes" "$err"
mkdir empty
expect_code data-2.11 "no text at all is a usage error" 2 "$TRAINER" prepare-data --out e empty
expect_eq data-2.12 "no text: message and hint" \
	"trainer: prepare-data: only 0 train and 0 validation bytes of text found
trainer: hint: give more text sources, e.g. /usr/share/common-licenses" "$err"

# A tampered shard is refused before training.
"$TRAINER" prepare-data --out s /usr/share/common-licenses 2>/dev/null
printf 'X' | dd of=s/val_000.bin bs=1 seek=100 conv=notrunc 2>/dev/null
expect_code data-3.1 "tampered shard: exit 3" 3 "$TRAINER" data.path=s model.depth=1 model.dim=16 \
	model.heads=2 model.seq_len=16 train.device_batch_size=2 train.total_batch_size=32 --record r.jsonl
expect_match data-3.2 "tampered shard: sha256 mismatch named" "$err" "^trainer: s/val_000.bin: sha256 [0-9a-f]{12}… does not match the manifest's"
expect_match data-3.3 "tampered shard: record crash in phase data" "$(cat r.jsonl)" '"status":"crash".*"phase":"data"'

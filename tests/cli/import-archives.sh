#!/bin/sh
# kbench - command-line tests: kbench import over the corpus of real
# archived reports (tests/data/archives), through bench/import-archives:
# every figure a person read from them is read, in its system, test and
# run; none altered; no results file pools two systems; every system the
# .expect names comes out, and no other
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

BENCH="$KBENCH_TOP_SRCDIR/bench/import-archives"
ARCH="$DATA/archives"
cd "$WORK" || exit 1

nrep=$(ls "$ARCH"/[0-9]*.txt | wc -l)
expect_eq "every report has its expected-values file" "$(ls "$ARCH"/[0-9]*.expect | wc -l)" "$nrep"
expect_eq "every report names its source Message-ID" \
    "$(grep -l '^Message-I[Dd]: <' "$ARCH"/[0-9]*.txt | wc -l) $(grep -l '^# source: Message-ID <' "$ARCH"/[0-9]*.expect | wc -l)" \
    "$nrep $nrep"
# every figure of the corpus is read but those of the forms kbench import
# does not read yet, named here with their counts; a change in any count
# is a change in what import reads, to be looked at
expect_rc "the bench over the corpus: not every figure read, so status 1" 1 "$BENCH" -k "$KBENCH" -d "$ARCH"
present=$(cat "$ARCH"/[0-9]*.expect | grep -v '^#' | awk -F'|' 'NF == 4 { n += split($4, a, " ") } END { print n }')
systems=$(for e in "$ARCH"/[0-9]*.expect; do grep -v '^#' "$e" | awk -F'|' 'NF == 4 { print $1 "|" $2 }' | sort -u; done | wc -l)
# the corpus as it stands: a report, figure or system added or dropped
# changes these, and the totals below with them
expect_eq "the corpus: reports, figures a person read, systems" "$nrep $present $systems" "48 2040 105"
# 022 (each count's two runs interleaved, one per kernel, as a prose line
# says) is imported with the option its .expect names, --rows 1,1, as a
# person would, and read whole; without it, its 14 figures stay in one
# system the stderr line names (import-forms.sh).  042 (no line names
# dbench or tbench): its 7 figures of 4 systems are skipped, named
unread=7
expect_out_grep "$((present - unread)) of $present figures read, $((systems - 4)) of $systems systems right, none wrong, altered or pooled" \
    "^total \($nrep reports\) +$((present - unread)) of +$present +$((systems - 4)) of +$systems +0 +0 +0\$"
expect_out_grep "022, with its --rows, read whole" "^022-dbench1-interleaved-kernels +14 of +14 +2 of +2 +0 +0 +0\$"
expect_out_grep "042's runs not read" "^042-supercite-quoted-labels +0 of +7 +0 of +4 +0 +0 +0\$"
expect_eq "every other report read whole, each of its systems right" \
    "$(grep -E '^[0-9]{3}-' "$WORK/out" | grep -v '^042-' | awk '$2 != $4 || $5 != $7 || $8 != 0 || $9 != 0 || $10 != 0' | wc -l)" "0"
# 044-047 (LMbench 1.0 and 1.1; hdparm set off by "| ", one kernel four
# ways, a block under prose its own system; dbench 4 behind "> > ") as the
# bench counts them
expect_eq "044-047 read whole, their systems right" \
    "$(grep -E '^04[4-7]-' "$WORK/out" | awk '{ print $2, $4, $5, $7, $8 }' | tr '\n' ' ')" \
    "78 78 4 4 0 128 128 4 4 0 12 12 4 4 0 2 2 2 2 0 "
# the figures of 040-043 (numbered hdparm headings, a table of Averages,
# supercite quotes, LMbench's cut OS column) as the bench counts them
expect_eq "040, 041, 043 read whole" \
    "$(grep -E '^04[013]-' "$WORK/out" | awk '{ print $2, $4, $5, $7 }' | tr '\n' ' ')" \
    "15 15 3 3 35 35 7 7 62 62 2 2 "
# a pooled system is wrong, whatever its figures: a kbench whose import
# put 046's four blocks in one results file (every figure in it, at its
# place for the system its description names) has no system right there
mkdir pooled
cp "$ARCH"/046-* pooled/
cat > pooling-kbench <<EOF
#!/bin/sh
"$KBENCH" "\$@" || exit \$?
python3 - "\$(dirname "\$3")" <<'PY'
import glob, json, os, sys
files = sorted(glob.glob(os.path.join(sys.argv[1], "*.json")))
docs = [json.load(open(p)) for p in files]
for d in docs[1:]:
    docs[0]["tests"][0]["runs"] += d["tests"][0]["runs"]
for p in files:
    os.unlink(p)
json.dump(docs[0], open(files[0], "w"))
PY
EOF
chmod +x pooling-kbench
expect_rc "046 pooled into one results file: status 1" 1 "$BENCH" -k ./pooling-kbench -d pooled
expect_out_grep "no system right: the pooled file wrong, whatever its figures" \
    "^046-hdparm-bar-quoted-one-kernel-four-ways +3 of +12 +0 of +4 +1 +0 +1\$"
# the bench itself fails when a figure is not read: a copy with one figure changed
mkdir bad
cp "$ARCH"/001-* bad/
sed -i 's/^2.4.19-pre4-ac4 | | dbench 1 | 150.979$/2.4.19-pre4-ac4 | | dbench 1 | 150.978/' bad/001-dbench1-quoted-kernels.expect
expect_rc "a figure the report does not hold is a mismatch" 1 "$BENCH" -k "$KBENCH" -d bad
expect_out_grep "named as altered" "dbench 1 run 1 is 150.979, the report's 150.978"
finish

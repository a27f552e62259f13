#!/bin/sh
# kbench - command-line tests: README.md's "A study like the seeds' in two
# commands", each study's kbench suite and kbench compare run as written,
# with short times added (--runs 2, --pause 0, -t 0.3, --warmup 0 or
# --micro-quick) and the files renamed; the disk study's device is a file
# here, and the one suite's file stands for both kernels' (one machine)
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

README="$KBENCH_TOP_SRCDIR/README.md"
LOOP= MNT=
cleanup() {
    [ -n "$MNT" ] && umount "$MNT" 2>/dev/null
    [ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
cd "$WORK" || exit 1
truncate -s 512M disk.img

# the section's command lines, one study a block of two
sed -n "/^### A study like the seeds' in two commands/,/^### /p" "$README" >section
grep '^kbench ' section >studies
# the disk study's setup and teardown as written: a filesystem made on
# the device under test, mounted where the load runs
setup=$(grep -E '^mkfs' section) teardown=$(grep -E '^umount' section)
expect_true "the disk study makes a filesystem on the device under test" [ -n "$setup" ] && [ -n "$teardown" ]
expect_true "...and warns that it wipes the device" grep -q 'mkfs wipes' section
expect_true "the lmbench study runs the whole family" grep -q -- '--micro=lmbench ' studies
expect_eq "four studies of two commands each" "$(wc -l <studies | tr -d ' ')" "8"
expect_eq "each block: a suite, then a compare" \
    "$(cut -d' ' -f2 studies | tr '\n' ' ')" "suite compare suite compare suite compare suite compare "

# micro_gave_no_figure FILE: the series finished and its only failures
# are micro runs in which some tests gave no figure, each named with why
# (kbench-suite(1), failures); those are printed to $WORK/py.out
micro_gave_no_figure() {
    python3 -c '
import json, re, sys
d = json.load(open(sys.argv[1]))
f = d["failures"]
assert d.get("finished") and f
assert all(x["test"].startswith("micro") and re.match(r"^[a-z0-9_]+: .", x["message"]) for x in f)
print("; ".join(x["message"] for x in f))
' "$1" >"$WORK/py.out" 2>&1
}

n=0
while read -r suite && read -r compare; do
    n=$((n + 1))
    # the README's words, run by this kbench, with the device a file and
    # the times short
    s=$(echo "$suite" | sed "s|^kbench |$KBENCH |; s|/dev/sdb|$WORK/disk.img|; s|\$(uname -r)|x|")
    case "$s" in *" -D /mnt/kbench "*)
        # the device a loop device on a file, the mount point under $WORK
        if [ "$(id -u)" -ne 0 ] || ! command -v mkfs.ext4 >/dev/null 2>&1 ||
            ! LOOP=$(losetup --find --show "$WORK/disk.img" 2>/dev/null); then
            skip "study $n: mkfs and mount need root, mkfs.ext4 and a loop device"
            continue
        fi
        s=$(echo "$s" | sed "s|$WORK/disk.img|$LOOP|; s|/mnt/kbench|$WORK/mnt|")
        if sh -c "$(echo "$setup" | sed "s|/dev/sdb|$LOOP|g; s|/mnt/kbench|$WORK/mnt|g")" >setup.out 2>&1; then
            MNT=$WORK/mnt
            pass "study $n: the filesystem made and mounted as written"
        else
            fail "study $n: the filesystem made and mounted as written" "$(head -c 600 setup.out)"
            continue
        fi ;;
    esac
    # the README's own values of what is shortened go (an option given
    # twice is refused), and so does its -o
    s=$(echo "$s" | sed -E 's/ (--runs|--pause|-t|--warmup|-o)[ =][^ ]+//g')
    short="--runs 2 --pause 0 -t 0.3"
    runs=2
    # BYTE's whole family: one run a kernel
    case "$s" in *--micro=byte*) short="--runs 1 --pause 0 -t 0.3"; runs=1 ;; esac
    case "$s" in *--micro*) short="$short --micro-quick" ;; *) short="$short --warmup 0" ;; esac
    # a suite line an earlier study ran as written: its files serve again
    prev=$(grep -nxF -- "$suite" studies | head -n 1 | cut -d: -f1)
    if [ "$prev" -lt "$((2 * n - 1))" ]; then
        p=$(((prev + 1) / 2))
        if cp "$WORK/s$p-1.json" "$WORK/s$n-1.json" && cp "$WORK/s$p-2.json" "$WORK/s$n-2.json"; then
            pass "study $n: the suite of study $p, its files"
        else
            fail "study $n: the suite of study $p, its files" "study $p made none"
            continue
        fi
    else
        # shellcheck disable=SC2086
        run $s $short -o "$WORK/s$n-1.json" </dev/null
        if [ "$RC" -eq 0 ]; then
            pass "study $n: kbench suite"
        elif [ "$RC" -eq 1 ] && micro_gave_no_figure "$WORK/s$n-1.json"; then
            # an lmbench test whose two timings cannot be told apart on a
            # busy machine gives no figure rather than a made-up one: the
            # series is whole, exit 1, the file names the test and why
            pass "study $n: kbench suite (exit 1: $(head -c 200 "$WORK/py.out"))"
        elif grep -q "memory controller\|needs root" "$WORK/err"; then
            skip "study $n: this machine cannot run it: $(head -1 "$WORK/err")"
            continue
        else
            fail "study $n: kbench suite" "exit status $RC: $s" "$(head -c 600 "$WORK/err")"
            continue
        fi
        # the second kernel's file: the same command again would prove
        # nothing more here (one machine, one kernel), so the first file
        # stands for it
        # (a micro test that gave no figure in a run, on a loaded machine,
        # leaves that run in the file's failures, named with its reason)
        expect_true "study $n: the file holds each test's $runs runs (or why it skipped or failed)" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
fails = [f for f in d["failures"] if f["message"]]
assert d["tests"] and all(len(t["runs"]) == n or t.get("skipped")
                          or len(t["runs"]) + len(fails) >= n
                          for t in d["tests"]), [(t["name"], len(t["runs"])) for t in d["tests"]]
' "$WORK/s$n-1.json" "$runs"
        cp "$WORK/s$n-1.json" "$WORK/s$n-2.json"
        if [ -n "$MNT" ]; then
            expect_true "study $n: the load ran on the device's filesystem" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["params"]["directory"] == sys.argv[2], d["params"].get("directory")
' "$WORK/s$n-1.json" "$MNT"
            expect_true "study $n: unmounted as written" sh -c "$(echo "$teardown" | sed "s|/mnt/kbench|$MNT|g")"
            MNT=
        fi
    fi
    # the compare line with its two files swapped for the ones just made
    c=$(echo "$compare" | sed "s|^kbench |$KBENCH |; s|[^ ]*\\.json [^ ]*\\.json\$|$WORK/s$n-1.json $WORK/s$n-2.json|")
    # shellcheck disable=SC2086
    expect_rc "study $n: $(echo "$compare" | cut -d' ' -f1-4)" 0 $c </dev/null
    cp "$WORK/out" "$WORK/study$n.out"
done <studies

# what each study's compare prints, in its own form
expect_file_grep "BYTE: the result and index of each file" "$WORK/study1.out" '^Dhrystone 2 using register variables +116700\.0( +[0-9.]+){4}(  \[caveats [^]]*\])?$'
expect_file_grep "BYTE: the final scores" "$WORK/study1.out" '^FINAL SCORE +[0-9.]+ +[0-9.]+(  \[caveats [^]]*\])?$'
expect_file_grep "BYTE: the score's change and verdict" "$WORK/study1.out" '^  B against A: [+-][0-9.]+%  '
expect_lines "lkml: one From/To block" -eq 1 "$WORK/study2.out" '^From:$'
# --micro=byte: every BYTE test ran (by name, --list's), and compare has a
# line for each that has a figure in both files
"$KBENCH" micro --list --family byte | awk 'NR > 1 { print $1 }' >byte-names
expect_eq "--micro=byte: the rows are the BYTE family's tests" \
    "$(jget "$WORK/s1-1.json" '" ".join(t["name"] for t in d["tests"])')" "$(tr '\n' ' ' <byte-names | sed 's/ $//')"
both=$(python3 -c 'import json, sys
def has(p): return {t["name"] for t in json.load(open(p))["tests"] if t["runs"]}
print(len(has(sys.argv[1]) & has(sys.argv[2])))' "$WORK/s2-1.json" "$WORK/s2-2.json")
expect_true "--micro=byte: most BYTE tests have figures ($both)" [ "$both" -ge 25 ]
expect_lines "lkml: a line per test, BYTE's titles, and the FINAL SCORE's" -eq "$((both + 1))" "$WORK/study2.out" ' \|\| [0-9.]+ -> [0-9.]+ [+-][0-9]+\.[0-9]{2}%'
expect_file_grep "lkml: the FINAL SCORE's line" "$WORK/study2.out" '^FINAL SCORE .*\|\| [0-9.]+ -> [0-9.]+ [+-][0-9]+\.[0-9]{2}% '
expect_file_grep "lkml: Hanoi as BYTE names it" "$WORK/study2.out" '^Recursion Test--Tower of Hanoi \|\| '
if [ -s "$WORK/study3.out" ]; then
    expect_file_grep "runs: hdparm -T's two runs" "$WORK/study3.out" '^hdparm -T [0-9]+\.[0-9]{2}[+*]? [0-9]+\.[0-9]{2}[+*]?$'
    expect_lines "runs: dbench 10, with and without the limit, each kernel (a figure's caveat mark too)" -eq 4 "$WORK/study3.out" '^dbench 10 [0-9.e+]+[*]? [0-9.e+]+[*]?$'
    expect_lines "runs: a block per memory limit" -eq 2 "$WORK/study3.out" '^=+$'
fi
expect_file_grep "lmbench: its banner" "$WORK/study4.out" 'L M B E N C H  2 \. 0   S U M M A R Y'
sed -n '/^Processor, Processes/,/^$/p' "$WORK/study4.out" >"$WORK/study4.proc"
expect_lines "lmbench: the processor table, a row per run of each file" -eq 4 "$WORK/study4.proc" '^[^ ]+ +Linux [^ ]+ [AB][12] +[0-9-]+ '
expect_eq "lmbench: the rows in order: A1 A2 B1 B2" \
    "$(awk '$2 == "Linux" { printf "%s ", $4 }' "$WORK/study4.proc")" "A1 A2 B1 B2 "
# the whole family: every table of the seed's summary is there
for table in 'Context switching' '\*Local\* Communication latencies' 'File & VM system latencies' \
    '\*Local\* Communication bandwidths' 'Memory latencies'; do
    expect_file_grep "lmbench: the table '$table'" "$WORK/study4.out" "^$table"
done
# a row of a run whose null call, null I/O, stat and open clos each gave
# a figure holds them; a test that gave none leaves its cell blank, as
# lmbench's tables do
expect_lines "lmbench: the processor rows hold their figures" -ge 2 "$WORK/study4.proc" '^[^ ]+ +Linux [^ ]+ [AB][12] +[0-9-]+( +[0-9.]+){4}'
finish

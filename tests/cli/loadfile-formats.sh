#!/bin/sh
# kbench - command-line tests: dbench 1, 2 and 4 loadfiles run, and
# `kbench load --check` agrees with counts made independently with awk
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

D="$WORK/dir"
mkdir -p "$D"

# the "Operation Count" rows of --check, as "NAME COUNT" sorted
check_counts() {
    sed -n 's/^ \([A-Za-z_]*\) *\([0-9][0-9]*\) *[0-9.]*%$/\1 \2/p' "$WORK/out" | sort
}
check_bytes() {  # read written, in bytes, from the MB lines (3 decimals)
    r=$(sed -n 's/^bytes read: *\([0-9.]*\) MB.*/\1/p' "$WORK/out")
    w=$(sed -n 's/^bytes written: *\([0-9.]*\) MB.*/\1/p' "$WORK/out")
    echo "$r $w"
}

# dbench 4 and 2: one op per line, named by its first token
netbench_awk() {
    awk '!/^[ \t]*(#|$)/ { op = ($1 ~ /^[0-9.]+$/) ? $2 : $1; n[op]++ }
         END { for (o in n) print o, n[o] }' "$1" | sort
}
netbench_bytes() {
    awk '!/^[ \t]*(#|$)/ { i = ($1 ~ /^[0-9.]+$/) ? 2 : 1
         if ($i == "ReadX") r += $(i + 3); if ($i == "WriteX") w += $(i + 3) }
         END { printf "%.3f %.3f\n", r / 1e6, w / 1e6 }' "$1"
}

# dbench 1: the SMB-to-op mapping of kbench-loadfile(5), in awk (shared
# with loadfile-dbench1.sh); counts to stdout, bytes to $WORK/awkbytes
smbtrace_awk() {
    awk -f "$KBENCH_TOP_SRCDIR/tests/cli/smbtrace.awk" "$1" >"$WORK/awkall"
    sed -n 's/^bytes //p' "$WORK/awkall" >"$WORK/awkbytes"
    sed -n 's/^op //p' "$WORK/awkall" | sort
}

for f in small dbench2 dbench1; do
    L="$DATA/$f.txt"
    run "$KBENCH" load --check "$L"
    expect_status "$f: --check exits 0" 0
    check_counts >"$WORK/mine"
    bytes_mine=$(check_bytes)
    case $f in
        dbench1) smbtrace_awk "$L" >"$WORK/theirs"; bytes_theirs=$(cat "$WORK/awkbytes") ;;
        *) netbench_awk "$L" >"$WORK/theirs"; bytes_theirs=$(netbench_bytes "$L") ;;
    esac
    expect_same_file "$f: --check counts = awk counts" "$WORK/mine" "$WORK/theirs"
    expect_eq "$f: bytes read/written = awk (kbench, awk: MB)" "$bytes_mine" "$bytes_theirs"
    kload -q --run-once -c "$L" -D "$D" --json "$WORK/r.json" 2
    expect_status "$f: runs, exit 0" 0
    expect_eq "$f: runs, two passes, no errors" "$(jget "$WORK/r.json" '(d["results"]["errors"], d["results"]["passes"])')" \
        "(0, 2)" "$(tail -8 "$WORK/out")"
    expect_empty_dir "$f: directory left empty" "$D"
done

run "$KBENCH" load --check "$DATA/dbench2.txt"
expect_out_grep "dbench 2 detected" 'dbench2 format, valid'
run "$KBENCH" load --check "$DATA/dbench1.txt"
expect_out_grep "dbench 1 detected" 'dbench1 format, valid'
expect_out_grep "unmodelled SMB commands listed by kind" '^  SMBnegprot +2 +\(first at line 3\)$'
expect_out_grep "SMBlseek listed" '^  SMBlseek +2 '
run "$KBENCH" load --check /usr/share/dbench/client.txt
if [ -r /usr/share/dbench/client.txt ]; then
    expect_out_grep "dbench 4 detected" 'dbench4 format, valid'
    expect_out_grep "client.txt: 23 handles at most" '^handles open: +23 at most$'
    expect_out_grep "client.txt: 1015.974 MB written" '^bytes written: +1015\.974 MB'
fi

# forcing a format; a gzip-compressed loadfile is read as it is
expect_rc "forced dbench4 on a dbench 2 file fails" 2 "$KBENCH" load --check --format=dbench4 "$DATA/dbench2.txt"
expect_err_grep "with a line number" 'dbench2.txt:4: QUERY_PATH_INFORMATION: too few arguments'
expect_rc "unknown --format" 2 "$KBENCH" load --check --format=dbench9 "$DATA/small.txt"
gzip -c "$DATA/dbench1.txt" >"$WORK/trace.txt.gz"
run "$KBENCH" load --check "$WORK/trace.txt.gz"
expect_out_grep "gzip loadfile read" 'dbench1 format, valid'
kload -q --run-once -c "$WORK/trace.txt.gz" -D "$D" 1
expect_status "gzip loadfile runs" 0
# two gzip members are one loadfile; bytes after the last member are no
# line of it and are not passed over in silence
cat "$WORK/trace.txt.gz" "$WORK/trace.txt.gz" >"$WORK/two.txt.gz"
run "$KBENCH" load --check "$WORK/two.txt.gz"
expect_out_grep "two gzip members read as one file" 'dbench1 format, valid'
{ cat "$WORK/trace.txt.gz"; echo garbage; } >"$WORK/tail.txt.gz"
expect_rc "bytes after the gzip data refused" 2 "$KBENCH" load --check "$WORK/tail.txt.gz"
expect_err_grep "and said" 'tail.txt.gz: 8 bytes after the end of the gzip data, which are not loadfile lines'
# a cut gzip stream: the read error alone, not also its cut last line
gzip -c "$KBENCH_TOP_SRCDIR/loadfiles/client.txt" | head -c 100000 >"$WORK/cut.txt.gz"
expect_bad "a cut gzip loadfile: one line, the read error" '^.*cut.txt.gz: read error: gzip: [a-z ]+$' \
    "$KBENCH" load --check "$WORK/cut.txt.gz"

# a shipped loadfile by its bare name, from any directory
(cd "$WORK" && "$KBENCH" load --check smallfiles.txt) >"$WORK/out" 2>"$WORK/err"
expect_out_grep "bare shipped name found" 'loadfiles/smallfiles.txt: dbench4 format, valid'
printf 'SMBrmdir REQUEST Path \\\n' >"$WORK/rmroot.txt"
expect_rc "SMBrmdir of the run directory refused" 2 "$KBENCH" load --check --format=dbench1 "$WORK/rmroot.txt"
expect_err_grep "refusal named" 'rmroot.txt:1: SMBrmdir of the run directory itself is refused'

# every error, with its line, not just the first
printf 'Close 1 NT_STATUS_OK\nBogus 1 NT_STATUS_OK\nReadX 1 NT_STATUS_OK\nClose x NT_STATUS_OK\n' >"$WORK/bad.txt"
expect_rc "--check of a bad file exits 2" 2 "$KBENCH" load --check "$WORK/bad.txt"
expect_lines "--check lists all three errors" -eq 3 "$WORK/err" '^.*bad.txt:[0-9]*: '
# a reply whose request the trace lacks (a capture loses packets) is
# counted, not replayed, and not an error
printf 'SMBopenX REPLY Handle 3\nSMBmkdir REQUEST Path \\D\n' >"$WORK/orphan.txt"
run "$KBENCH" load --check --format=dbench1 "$WORK/orphan.txt"
expect_out_grep "REPLY without REQUEST counted" '^  SMBopenX REPLY without REQUEST +1 +\(first at line 1\)$'
expect_out_grep "REPLY without REQUEST replays nothing" '^lines: +2 \(1 operations, .*1 ignored'

finish

#!/bin/sh
# kbench - command-line tests: kbench disk on regular files
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/disk-lib.sh"

SHMFILE=
trap 'resize_stop; rm -f "$SHMFILE"; rm -rf "$WORK"' EXIT

F=$WORK/f64
SMALL=$WORK/small
MID=$WORK/mid
TINY=$WORK/tiny
dd if=/dev/urandom of="$F" bs=1M count=64 status=none
dd if=/dev/urandom of="$SMALL" bs=512K count=3 status=none    # 1.5 MiB
dd if=/dev/urandom of="$MID" bs=512K count=5 status=none      # 2.5 MiB
head -c 1000 /dev/urandom >"$TINY"
SUM_BEFORE=$(cat "$F" "$SMALL" "$MID" "$TINY" | cksum)
MTIME_BEFORE=$(stat -c %Y "$F")
WORK_FS=$(stat -f -c %T "$WORK")
# On tmpfs the pages are the file: a flush cannot drop them, and kbench must say so.
if [ "$WORK_FS" = tmpfs ]; then FLUSH_NOTE=' \(cache not flushed\)'; else FLUSH_NOTE=''; fi

# ---- both tests, the default ----
expect_rc "default runs -T and -t" 0 "$KBENCH" disk "$F" --json "$WORK/default.json"
expect_out_grep "MB unit stated" 'MB = 2\^20 bytes'
expect_out_grep "device header line" "^$F:\$"
expect_out_grep "cached line in hdparm's form" \
    '^ Timing cached reads:   +[0-9]+ MB in +[0-9]+\.[0-9]{2} seconds = +[0-9]+\.[0-9]{2} MB/sec$'
expect_out_grep "buffered line in hdparm's form" \
    "^ Timing buffered disk reads: +[0-9]+ MB in +[0-9]+\\.[0-9]{2} seconds = +[0-9]+\\.[0-9]{2} MB/sec$FLUSH_NOTE\$"
expect_arith "default: MB = seconds x MB/sec on each line" "$WORK/out" 2
cached_mb=$(line_field 1 1)
expect_true "-T: whole 2 MiB reads (MB even: $cached_mb)" [ $((cached_mb % 2)) -eq 0 ]
# the loop runs until 2 s have passed, and the figure is that loop less
# its measured overhead (whether the result is near 2 s depends on how
# busy the machine is: bench/timing-claims)
expect_json "-T: a loop of 2 s or more, its overhead subtracted" "$WORK/default.json" "$WORK/out" '
c = d["results"][0]["cached"]["runs"][0]
assert c["loop_seconds"] >= 2.0, c
assert 0 <= c["overhead_seconds"] < c["loop_seconds"], c
assert abs(c["seconds"] - (c["loop_seconds"] - c["overhead_seconds"])) < 1e-9, c
assert c["bytes"] == c["reads"] * 2097152, c'
mb=$(line_field 2 1)
s=$(line_field 2 2)
expect_true "-t: to the end (64 MB) or 3 s ($mb MB in $s s)" \
    awk -v mb="$mb" -v s="$s" 'BEGIN { exit !(mb == 64 || (mb < 64 && s >= 3.0)) }'
if [ "$WORK_FS" != tmpfs ]; then
    # (but the busy caveat: the machine may be running other work)
    expect_true "nothing printed on stderr" [ -z "$(grep -Ev '^(warning: busy: .*)?$' "$WORK/err")" ]
fi

# ---- only what was asked ----
expect_rc "-t alone" 0 "$KBENCH" disk -t "$F"
expect_no_grep "-t alone: no cached line" "$WORK/out" 'cached reads'
expect_arith "-t alone: one line, arithmetic" "$WORK/out" 1

# ---- a file smaller than one 2 MiB read: -T times it, -t refuses it ----
# (-t's reads of it would be over before they could be timed: one whole
# 2 MiB read is the least -t times, as hdparm)
expect_rc "1.5 MiB file, -T" 0 "$KBENCH" disk -T "$SMALL" --json "$WORK/small.json"
expect_arith "1.5 MiB file: arithmetic" "$WORK/out" 1
expect_json "1.5 MiB file: JSON" "$WORK/small.json" "$WORK/out" '
c = d["results"][0]["cached"]["runs"][0]
assert c["bytes"] % 1572864 == 0 and c["bytes"] == c["reads"] * 1572864, c
assert d["results"][0]["size_bytes"] == 1572864
assert d["results"][0]["type"] == "regular file"'
for t in "$SMALL 1572864" "$TINY 1000"; do
    set -- $t
    expect_bad "-t on a $2-byte file: refused" \
        "^kbench disk: $1: -t needs 2097152 bytes \\(one whole 2 MiB read\\); it has $2 \\(-T alone times a smaller one\\)\$" \
        "$KBENCH" disk -t "$1" --json "$WORK/tiny.json"
    expect_true "-t on a $2-byte file: no JSON written" [ ! -e "$WORK/tiny.json" ]
done
expect_bad "both tests on a 1000-byte file: refused before any timing" \
    "^kbench disk: $TINY: -t needs 2097152 bytes" "$KBENCH" disk "$TINY"

# ---- 2.5 MiB: one whole read, then the rest up to the end ----
expect_rc "2.5 MiB file, -t" 0 "$KBENCH" disk -t "$MID" --json "$WORK/mid.json"
expect_out_grep "-t reads the file exactly to its end" '^ Timing buffered disk reads: 2\.50 MB in '
expect_json "2.5 MiB file: JSON" "$WORK/mid.json" "$WORK/out" '
b = d["results"][0]["buffered"]["runs"][0]
assert b["bytes"] == 2621440 and b["reads"] == 2 and b["reached_end"] is True, b'

# ---- --offset: -t starts there and stops at the end, never past it ----
expect_rc "--offset 62M" 0 "$KBENCH" disk -t --offset 62M "$F" --json "$WORK/off.json"
expect_out_grep "--offset 62M reads the last 2 MB" '^ Timing buffered disk reads: +2 MB in '
expect_json "--offset 62M: JSON" "$WORK/off.json" "$WORK/out" '
b = d["results"][0]["buffered"]["runs"][0]
assert b["offset_bytes"] == 62 * 1048576 and b["bytes"] == 2097152 and b["reached_end"] is True, b
assert d["params"]["offset_bytes"] == 62 * 1048576
assert d["results"][0]["buffered"]["cov_pct"] is None  # one run: no spread'
# less than one whole read left after the offset: refused, never a figure
# (one byte before the end once printed "0.00 MB/sec" with status 0)
for off in $((64 * MIB - 1)) $((64 * MIB - 512)) $((62 * MIB + 1)); do
    expect_bad "--offset ${off}B: $((64 * MIB - off)) bytes left, refused" \
        "^kbench disk: $F: -t needs 2097152 bytes \\(one whole 2 MiB read\\) from the offset to the end; --offset ${off}B leaves $((64 * MIB - off)); give an offset at most $((62 * MIB)) bytes\$" \
        "$KBENCH" disk -t --offset "${off}B" "$F" --json "$WORK/off2.json"
    expect_true "--offset ${off}B: no JSON written" [ ! -e "$WORK/off2.json" ]
done
expect_rc "--offset 63M with -T only: not bound by -t's rule" 0 "$KBENCH" disk -T --offset 63M "$F"
expect_rc "--offset 61.5M" 0 "$KBENCH" disk -t --offset $((61 * MIB + MIB / 2))B "$F"
expect_out_grep "--offset 61.5M: 2.50 MB to the end" '^ Timing buffered disk reads: 2\.50 MB in '
expect_arith "--offset: arithmetic" "$WORK/out" 1

# ---- --runs: each run, then min / median / max / CoV ----
expect_rc "--runs 3 -t" 0 "$KBENCH" disk -t --runs 3 "$F" --json "$WORK/runs.json"
expect_arith "--runs 3: three lines, arithmetic" "$WORK/out" 3
expect_out_grep "--runs 3: summary line" \
    '^ Summary buffered disk reads \(3 runs\): min [0-9.]+ / median [0-9.]+ / max [0-9.]+ MB/sec, CoV [0-9.]+%'
summary_ok() {
    timing_lines "$WORK/out" | awk '{ print $3 }' | sort -n >"$WORK/rates"
    set -- $(sed -n 's/^ Summary .*: min \([0-9.]*\) \/ median \([0-9.]*\) \/ max \([0-9.]*\) MB\/sec, CoV \([0-9.]*\)%.*/\1 \2 \3 \4/p' "$WORK/out")
    awk -v mn="$1" -v md="$2" -v mx="$3" -v cov="$4" '
        { v[NR] = $1; sum += $1 }
        END {
            if (NR != 3) exit 1
            mean = sum / 3
            for (i = 1; i <= 3; i++) ss += (v[i] - mean) ^ 2
            c = 100 * sqrt(ss / 2) / mean
            d = c - cov; if (d < 0) d = -d
            exit !(mn == v[1] && md == v[2] && mx == v[3] && d < 0.02)
        }' "$WORK/rates"
}
expect_true "--runs 3: min, median, max and CoV of the printed runs" summary_ok
expect_json "--runs 3: JSON runs and summary" "$WORK/runs.json" "$WORK/out" '
import statistics
t = d["results"][0]["buffered"]
assert len(t["runs"]) == 3 and d["params"]["runs"] == 3
r = [x["MB_per_s"] for x in t["runs"]]
assert abs(t["median"] - statistics.median(r)) < 1e-6 * t["median"]
cov = 100 * statistics.stdev(r) / statistics.mean(r)
assert abs(t["cov_pct"] - cov) < 1e-6 * max(cov, 1e-3), (t["cov_pct"], cov)'

# ---- --direct: O_DIRECT into an aligned buffer ----
run "$KBENCH" disk -t --direct "$MID"
if [ "$RC" -eq 2 ] && grep -q 'O_DIRECT is not supported' "$WORK/err"; then
    skip "--direct (O_DIRECT not supported on $WORK_FS)"
else
    expect_rc "--direct -T -t" 0 "$KBENCH" disk --direct "$F" --json "$WORK/direct.json"
    expect_out_grep "--direct: O_DIRECT cached reads line" '^ Timing O_DIRECT cached reads:   +[0-9]+ MB in '
    expect_out_grep "--direct: O_DIRECT disk reads line" '^ Timing O_DIRECT disk reads: +[0-9]+ MB in '
    expect_arith "--direct: arithmetic" "$WORK/out" 2
    expect_json "--direct: JSON" "$WORK/direct.json" "$WORK/out" '
assert d["params"]["direct"] is True
assert d["results"][0]["cached"]["test"] == "O_DIRECT cached reads"
assert d["results"][0]["buffered"]["test"] == "O_DIRECT disk reads"'
    expect_rc "--direct on the 2.5 MiB file" 0 "$KBENCH" disk -t --direct "$MID" --json "$WORK/dt.json"
    expect_json "--direct: a file is read to its end, not past" "$WORK/dt.json" "$WORK/out" '
assert d["results"][0]["buffered"]["runs"][0]["bytes"] == 2621440'

    # the 3-second limit: a sparse 1 TiB file cannot be read in 3 s
    if truncate -s 1T "$WORK/sparse" 2>/dev/null; then
        expect_rc "-t on a 1 TiB sparse file" 0 "$KBENCH" disk -t --direct "$WORK/sparse" \
            --json "$WORK/sparse.json"
        mb=$(line_field 1 1)
        s=$(line_field 1 2)
        # (how soon after 3 s it stops depends on the machine's load:
        # bench/timing-claims)
        expect_true "-t stops after 3 s, not at the end ($mb MB in $s s)" \
            awk -v mb="$mb" -v s="$s" 'BEGIN { exit !(s >= 3.0 && mb < 1048576 && mb % 2 == 0) }'
        expect_json "-t 3 s limit: JSON" "$WORK/sparse.json" "$WORK/out" '
b = d["results"][0]["buffered"]["runs"][0]
assert b["reached_end"] is False and b["seconds"] >= 3.0, b
assert b["bytes"] == b["reads"] * 2097152, b'
        rm -f "$WORK/sparse"
    else
        skip "-t 3 s limit (no sparse 1 TiB file here)"
    fi
fi

# ---- --json: the document, and '-' keeps standard output pure JSON ----
expect_rc "--json -" 0 "$KBENCH" disk -t "$MID" --json -
cp "$WORK/err" "$WORK/text"
expect_json "--json -: standard output is the document, text on stderr" "$WORK/out" "$WORK/text" '
assert d["params"]["tests"] == ["buffered"] and d["params"]["request_bytes"] == 2097152
assert d["params"]["cached_pause_seconds"] == 1 * float(os.environ["KBENCH_TEST_PAUSE_SCALE"])
assert d["params"]["buffered_pause_seconds"] == 3 * float(os.environ["KBENCH_TEST_PAUSE_SCALE"])
assert "kernel" in d["system"] and d["results"][0]["device"].endswith("/mid")'

# ---- an I/O error mid-read: how far it got, exit 1, no figure ----
if have_strace; then
    expect_rc "-t: EIO on the third read" 1 inject_eio "$F" 3 "$KBENCH" disk -t "$F" --json "$WORK/eio.json"
    expect_err_grep "-t EIO: where and how far" \
        "$F: buffered disk reads: read error at byte 4194304 after 4\\.00 MB in [0-9.]+ seconds: Input/output error"
    expect_no_grep "-t EIO: no result line" "$WORK/out" '^ Timing'
    expect_json "-t EIO: JSON error, no runs" "$WORK/eio.json" "$WORK/out" '
t = d["results"][0]["buffered"]
assert t["runs"] == [] and t["median"] is None
assert t["error"]["at_byte"] == 4194304 and t["error"]["MB_read"] == 4.0'
    expect_rc "-t --runs 3: EIO in the second run" 1 inject_eio "$MID" 3 "$KBENCH" disk -t --runs 3 "$MID"
    expect_arith "EIO in run 2: run 1 still printed" "$WORK/out" 1
    expect_out_grep "EIO in run 2: summary of 1 of 3 runs" '^ Summary buffered disk reads \(1 of 3 runs\)'
    expect_rc "-T: EIO on the third read" 1 inject_eio "$F" 3 "$KBENCH" disk -T "$F"
    expect_err_grep "-T EIO: how far" "cached reads: read error at byte 0 after 4\\.00 MB"
else
    skip "I/O error injection (no working strace)"
fi

# ---- the file changes size during the run: said, no figure, exit 1 ----
# The change is made while kbench is stopped right after its first timed
# read (resize_during), so it always falls inside the run.
if have_strace; then
    RS=$WORK/resized
    dd if=/dev/urandom of="$RS" bs=1M count=8 status=none
    resize_during "$RS" 'truncate -s 3M "$RS"' "$KBENCH" disk -t "$RS" --json "$WORK/rs.json"
    expect_resized "-t, truncated to 3 MiB after the first read" "$RS" "buffered disk reads" 3145728 \
        ", the data ended at byte 3145728"
    expect_json "-t truncated: JSON error, no runs" "$WORK/rs.json" "$WORK/out" '
t = d["results"][0]["buffered"]
assert t["runs"] == [] and t["median"] is None, t
e = t["error"]
assert e["size_changed"] is True and e["size_bytes_after"] == 3145728, e
assert e["at_byte"] == 3145728 and e["MB_read"] == 3.0, e
assert d["results"][0]["size_bytes"] == 8388608'
    dd if=/dev/urandom of="$RS" bs=1M count=8 status=none
    resize_during "$RS" 'truncate -s 16M "$RS"' "$KBENCH" disk -t "$RS"
    expect_resized "-t, extended to 16 MiB after the first read" "$RS" "buffered disk reads" 16777216 ""
    dd if=/dev/urandom of="$RS" bs=1M count=8 status=none
    resize_during "$RS" 'truncate -s 2M "$RS"' "$KBENCH" disk -t "$RS"
    expect_resized "-t, truncated at a read boundary (the next read gets nothing)" "$RS" \
        "buffered disk reads" 2097152 ", the data ended at byte 2097152"
    dd if=/dev/urandom of="$RS" bs=1M count=8 status=none
    resize_during "$RS" 'truncate -s 1M "$RS"' "$KBENCH" disk -T "$RS"
    expect_resized "-T, truncated to 1 MiB after the first read" "$RS" "cached reads" 1048576 \
        ", the data ended at byte 1048576"
    dd if=/dev/urandom of="$RS" bs=1M count=8 status=none
    resize_during "$RS" 'truncate -s 4M "$RS"' "$KBENCH" disk -t --runs 3 "$RS"
    expect_resized "--runs 3, truncated in the first run" "$RS" "buffered disk reads" 4194304 \
        ", the data ended at byte 4194304"
    rm -f "$RS"
else
    skip "a size change during the run (no working strace)"
fi

# ---- the sequence of a run on a file: fadvise DONTNEED, pause, reads ----
if have_strace; then
    seq_t=$(run_sequence --real-pause -t "$F")
    expect_true "-t on a file: flush, 3 s pause, reads of 2 MiB ($seq_t)" \
        [ "$seq_t" = "flush pause3 lseek read2097152" ]
else
    skip "the sequence of a run (no working strace)"
fi

# ---- the page cache cannot be flushed for a tmpfs file: said on the line ----
if [ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] &&
   SHMFILE=$(mktemp /dev/shm/kbench-test-disk.XXXXXX 2>/dev/null); then
    dd if=/dev/urandom of="$SHMFILE" bs=1M count=8 status=none
    expect_rc "tmpfs file -t" 0 "$KBENCH" disk -t "$SHMFILE" --json "$WORK/shm.json"
    expect_out_grep "tmpfs: '(cache not flushed)' on the line" \
        '^ Timing buffered disk reads: +8 MB in .* MB/sec \(cache not flushed\)$'
    expect_err_grep "tmpfs: stderr says why, as the cache_timed caveat" \
        "^warning: cache_timed: $SHMFILE: buffer cache not flushed before -t run 1: 100% of the first 8\\.00 MB"
    expect_py "tmpfs: the text's warnings are the JSON's caveats" "$WORK/shm.json" "$WORK/err" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
w = [l[len("warning: "):].rstrip("\n") for l in open(sys.argv[2]) if l.startswith("warning: ")]
assert w and w == ["%s: %s" % (c["key"], c["text"]) for c in d["caveats"]], (w, d["caveats"])
PY
    expect_json "tmpfs: JSON cache_flushed false" "$WORK/shm.json" "$WORK/out" '
b = d["results"][0]["buffered"]["runs"][0]
assert b["cache_flushed"] is False and b["cached_pct_after_flush"] == 100.0, b'
    rm -f "$SHMFILE"
else
    skip "tmpfs flush check (no writable tmpfs /dev/shm)"
fi

# ---- read-only: the files are untouched ----
# ---- a stop signal mid-series: lines only for the runs that finished ----
# (SIGINT given its default action: a background job of this shell starts
# with it ignored, and kbench keeps it so)
for sig in INT USR1; do
    rm -f "$WORK/sig.json"
    : >"$WORK/out"
    env --default-signal=INT "$KBENCH" disk -t --runs 50 "$F" --json "$WORK/sig.json" >"$WORK/out" 2>"$WORK/err" &
    pid=$!
    wait_until 120 grep -qs '^ Timing buffered' "$WORK/out"
    kill -s "$sig" "$pid"
    wait "$pid"
    RC=$?
    want=$((128 + $(python3 -c 'import signal, sys; print(int(getattr(signal, "SIG" + sys.argv[1])))' "$sig")))
    expect_status "SIG$sig mid-series: exit $want" "$want"
    expect_no_grep "SIG$sig mid-series: no summary" "$WORK/out" 'Summary'
    expect_lines "SIG$sig mid-series: fewer than 50 runs printed" -lt 50 "$WORK/out" '^ Timing'
    # each line printed is a whole run's: 64 MB, or 3 s of reads
    expect_true "SIG$sig mid-series: every line printed is a whole run's" \
        awk '/^ Timing/ { n++; if (!($5 == 64 || $8 + 0 >= 3.0)) bad++ } END { exit !(n >= 1 && !bad) }' "$WORK/out"
    expect_true "SIG$sig mid-series: no JSON, no temporary file" \
        [ -z "$(find "$WORK" -maxdepth 1 -name 'sig.json*' -print)" ]
done

# a filesystem image: mkfs zeroes its tables by leaving holes, which -t
# would time as zeros from no disk (sparse_file, whose text says how to
# get an image without them); the README's remedy, cp --sparse=never,
# gives an image -t reads whole
if command -v mkfs.ext4 >/dev/null 2>&1 && truncate -s 64M "$WORK/fs.img" &&
   mkfs.ext4 -q -F -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "$WORK/fs.img" >/dev/null 2>&1; then
    run "$KBENCH" disk -t --json "$WORK/fs.json" "$WORK/fs.img"
    expect_err_grep "mkfs'd image: sparse_file, with the remedy in its text" \
        '^warning: sparse_file: .*fs\.img: the data -t reads has a hole at byte [0-9]+ .*cp --sparse=never'
    expect_eq "mkfs'd image: the hole in the JSON" \
        "$(jget "$WORK/fs.json" '[c["key"] for c in d["caveats"]].count("sparse_file")')" "1"
    cp --sparse=never "$WORK/fs.img" "$WORK/filled.img"
    run "$KBENCH" disk -t --json "$WORK/filled.json" "$WORK/filled.img"
    expect_eq "cp --sparse=never: no hole, no sparse_file" \
        "$(jget "$WORK/filled.json" '[c["key"] for c in d["caveats"]].count("sparse_file")')" "0"
    rm -f "$WORK/fs.img" "$WORK/filled.img"
else
    skip "a filesystem image's holes (no mkfs.ext4)"
fi

expect_true "files unchanged (checksum)" [ "$(cat "$F" "$SMALL" "$MID" "$TINY" | cksum)" = "$SUM_BEFORE" ]
expect_true "file mtime unchanged" [ "$(stat -c %Y "$F")" = "$MTIME_BEFORE" ]

finish

#!/bin/sh
# kbench - command-line tests: the shipped loadfiles are genload's output,
# replay without errors, and client.txt has the mix it is meant to have
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

: "${GENLOAD:=$(dirname "$KBENCH")/../loadfiles/genload}"
LF="$KBENCH_TOP_SRCDIR/loadfiles"
WORKLOADS="client smallfiles stream"

# --- each file is what genload writes for the seed it names ----------------
for w in $WORKLOADS; do
    seed=$(sed -n '2s/.*genload --seed \([0-9][0-9]*\) .*/\1/p' "$LF/$w.txt")
    if [ ! -x "$GENLOAD" ]; then
        skip "$w.txt regenerated (no genload at $GENLOAD)"
    elif [ -z "$seed" ]; then
        fail "$w.txt names its seed on line 2" "$(sed -n 2p "$LF/$w.txt")"
    elif "$GENLOAD" --seed "$seed" "$w" >"$WORK/$w.txt" 2>"$WORK/err" &&
         cmp -s "$WORK/$w.txt" "$LF/$w.txt"; then
        pass "$w.txt is genload --seed $seed $w, byte for byte"
    else
        fail "$w.txt is genload --seed $seed $w, byte for byte" \
            "regenerate with: make regen-loadfiles" \
            "$(diff "$WORK/$w.txt" "$LF/$w.txt" 2>&1 | head -6)" "$(cat "$WORK/err")"
    fi
    head -5 "$LF/$w.txt" >"$WORK/head"
    expect_file_grep "$w.txt: header says what it is" "$WORK/head" '^# kbench generated workload'
    expect_file_grep "$w.txt: header says its licence" "$WORK/head" '^# SPDX-License-Identifier: GPL-3\.0-or-later$'
done

# --- same seed, same bytes; another seed, another file ----------------------
if [ -x "$GENLOAD" ]; then
    "$GENLOAD" --seed 7 smallfiles >"$WORK/a" && "$GENLOAD" --seed 7 smallfiles >"$WORK/b"
    expect_same_file "genload: same seed, same output" "$WORK/a" "$WORK/b"
    "$GENLOAD" --seed 8 smallfiles >"$WORK/c"
    expect_true "genload: the seed matters" sh -c '! cmp -s "$0" "$1"' "$WORK/a" "$WORK/c"
    expect_rc "genload: unknown workload is a usage error" 2 "$GENLOAD" nosuch
    expect_rc "genload: bad seed is a usage error" 2 "$GENLOAD" --seed x client
fi

# --- each replays once with no errors and leaves nothing behind -------------
D="$WORK/d"
mkdir -p "$D"
avail_kb=$(df -Pk "$D" | awk 'NR == 2 { print $4 }')
for w in $WORKLOADS; do
    # stream.txt keeps 512 MiB of files at its peak
    if [ "$w" = stream ] && [ "${avail_kb:-0}" -lt 1200000 ]; then
        skip "$w.txt replay (needs 1.2 GB free in $D)"
        continue
    fi
    kload --run-once -q --json "$WORK/$w.json" -c "$LF/$w.txt" -D "$D" 1
    want=$(grep -cv '^#' "$LF/$w.txt")
    expect_status "$w.txt: one pass, exit 0" 0
    expect_eq "$w.txt: one pass, $want operations, no errors (errors, ops)" \
        "$(jget "$WORK/$w.json" '(d["results"]["errors"], d["results"]["ops_total"])' 2>&1)" "(0, $want)" \
        "$(head -20 "$WORK/out")"
    expect_empty_dir "$w.txt: directory empty after" "$D"
done

# --- no line of dbench's own loadfile ---------------------------------------
if [ -r /usr/share/dbench/client.txt ]; then
    LC_ALL=C sort -u /usr/share/dbench/client.txt >"$WORK/dbench.sorted"
    for w in $WORKLOADS; do
        grep -v '^#' "$LF/$w.txt" | LC_ALL=C sort -u >"$WORK/$w.sorted"
        expect_eq "$w.txt: no line in common with dbench's client.txt" \
            "$(LC_ALL=C comm -12 "$WORK/dbench.sorted" "$WORK/$w.sorted" | head -3)" ""
    done
else
    skip "no line of dbench's client.txt (install Debian's dbench package)"
fi

# --- client.txt's mix, counted independently of genload and kbench ----------
# Per pass: the share of each operation, the bytes of ReadX and WriteX, the
# most handles open at once (NTCreateX .. Close) and the peak of file bytes
# on disk (sizes followed across writes, truncating opens, renames, unlinks
# and Deltree).  MB = 10^6 bytes.
mix() {
    awk '
    # tokens split on blanks; double quotes group and are removed
    function tok(line,   n, i, c, q, cur, started) {
        n = 0; q = 0; cur = ""; started = 0
        for (i = 1; i <= length(line); i++) {
            c = substr(line, i, 1)
            if (c == "\"") { q = !q; started = 1; continue }
            if (!q && (c == " " || c == "\t")) {
                if (started) { T[++n] = cur; cur = ""; started = 0 }
                continue
            }
            cur = cur c; started = 1
        }
        if (started) T[++n] = cur
        return n
    }
    function num(s,   i, v) {
        if (s !~ /^0[xX]/) return s + 0
        v = 0
        for (i = 3; i <= length(s); i++)
            v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
        return v
    }
    function drop(p) { if (p in size) { bytes -= size[p]; delete size[p] } }
    /^[ \t]*#/ || /^[ \t]*$/ { next }
    {
        n = tok($0); op = T[1]; ok = (T[n] == "NT_STATUS_OK")
        count[op]++; total++
        if (op == "ReadX") rd += T[4]
        else if (op == "WriteX") {
            wr += T[4]; p = fpath[T[2]]; end = T[3] + T[4]
            if (end > size[p]) { bytes += end - size[p]; size[p] = end }
        } else if (op == "NTCreateX" && ok) {
            p = tolower(T[2])
            if (num(T[3]) % 2 == 0) {       # not a directory
                if (num(T[4]) == 4 || num(T[4]) == 5) { drop(p); size[p] = 0 }
                else if (!(p in size)) size[p] = 0
            }
            fpath[T[5]] = p; open[T[5]] = 1; nopen++
            if (nopen > maxopen) maxopen = nopen
        } else if (op == "Close") {
            if (T[2] in open) { delete open[T[2]]; nopen-- }
        } else if (op == "Unlink" && ok) drop(tolower(T[2]))
        else if (op == "Rename" && ok) {
            a = tolower(T[2]); b = tolower(T[3]); s = size[a]
            drop(a); drop(b); size[b] = s; bytes += s
        } else if (op == "Deltree") {
            d = tolower(T[2])
            for (p in size) if (p == d || index(p, d "\\") == 1) drop(p)
        }
        if (bytes > peak) peak = bytes
    }
    END {
        for (op in count) printf "op %s %d %.6f\n", op, count[op], count[op] / total
        printf "lines %d\nwritten %d\nread %d\nmaxopen %d\npeak %d\n", total, wr, rd, maxopen, peak
    }' "$1"
}

mix "$LF/client.txt" >"$WORK/mix"
# target share of each operation (percent), then the checks: every share
# within 15% of its target, W:R within 15% of 1:1.45, at most 25 handles,
# 20..30 MB at the peak, about 50,000 operations
awk '
BEGIN {
    n = split("ReadX 27 NTCreateX 17 QUERY_PATH_INFORMATION 16 Close 13 " \
              "WriteX 9 FIND_FIRST 6 Unlink 3.5 QUERY_FS_INFORMATION 2.9 " \
              "QUERY_FILE_INFORMATION 2.7 SET_FILE_INFORMATION 1.4 Flush 1.2 " \
              "Rename 0.7 LockX 0.06 UnlockX 0.06", f, " ")
    for (i = 1; i < n; i += 2) { name[++nt] = f[i]; t[f[i]] = f[i + 1] }
}
$1 == "op" { share[$2] = 100 * $4; cnt[$2] = $3; next }
{ v[$1] = $2 }
END {
    printf "%-24s %8s %8s %8s\n", "operation", "count", "share%", "target%"
    for (i = 1; i <= nt; i++) {
        o = name[i]; r = share[o] / t[o]
        printf "%-24s %8d %8.3f %8.2f  %s\n", o, cnt[o], share[o], t[o], (r >= 0.85 && r <= 1.15) ? "ok" : "OUT"
        if (r < 0.85 || r > 1.15) bad = bad " " o
    }
    rw = v["read"] / v["written"]
    printf "written %.1f MB, read %.1f MB: W:R = 1:%.3f (target 1:1.45)\n", v["written"] / 1e6, v["read"] / 1e6, rw
    printf "handles open at most %d; peak on disk %.1f MB; %d operations\n", v["maxopen"], v["peak"] / 1e6, v["lines"]
    if (rw < 1.45 * 0.85 || rw > 1.45 * 1.15) bad = bad " W:R"
    if (v["maxopen"] > 25) bad = bad " handles"
    if (v["peak"] < 20e6 || v["peak"] > 30e6) bad = bad " peak"
    if (v["lines"] < 45000 || v["lines"] > 55000) bad = bad " lines"
    print (bad == "" ? "mix: ok" : "mix: out of range:" bad)
}' "$WORK/mix" >"$WORK/table"
cat "$WORK/table"
expect_eq "client.txt: the office mix, W:R, handles, peak, size" "$(tail -1 "$WORK/table")" "mix: ok"

finish

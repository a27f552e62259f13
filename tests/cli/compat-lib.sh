# kbench - helpers for the tests of the personalities (sourced after lib.sh)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# $B: a directory of links named dbench, tbench, tbench_srv and hdparm to
# $KBENCH, as make install puts them in $(pkglibexecdir)/compat.  The
# parsers read a run's output as each harness does and print the fields
# it takes, one record a line, each field's type in place of its value
# with `shape` (so that a run of kbench and one of the real tool on the
# same work compare field for field; timings are never compared).
B=$WORK/compat
mkdir -p "$B"
for n in dbench tbench tbench_srv hdparm; do ln -s "$KBENCH" "$B/$n"; done

# lkp_parse FILE: LKP's programs/dbench/parse and programs/tbench/parse:
# each line starting "Throughput", split at "=": fields 1, 3 and 5 (from
# 0) of the first part (MB/s, clients, procs), the number after "=".
lkp_parse() {
    awk '/^Throughput/ { split($0, p, "="); split(p[1], f, " ");
        split(p[2], m, " "); print f[2], f[4], f[6], m[1] }' "$1"
}

# mmtests_exec FILE: mmtests' dbench4 extraction of the per-second lines:
# the lines holding "execute", fields 3 (MB/sec) and 6 (the second).
mmtests_exec() {
    awk '/execute/ { print $3, $6 }' "$1"
}

# mmtests_passes FILE: the "completed in" lines, fields 4 (the pass, ms)
# and 8 (when, ms).
mmtests_passes() {
    awk '/completed in/ { print $4, $8 }' "$1"
}

# mmtests_ops FILE: mmtests' dbench shellpack's op rows: grep -A 99
# Operation, without dashes, blank lines, Throughput and the heading; its
# parse-results keeps fields 1 (op-NAME) and 3 (the mean latency, ms)
mmtests_ops() {
    grep -A 99 Operation "$1" | sed -e '/-----/d' -e '/^$/d' -e '/Throughput/d' -e '/Operation/d'
}

# pts_dbench FILE: the Phoronix Test Suite's pts/dbench result template,
# "Throughput #_RESULT_# MB/sec": the word after "Throughput".
pts_dbench() {
    awk '$1 == "Throughput" && $3 == "MB/sec" { print $2 }' "$1"
}

# pts_hdparm FILE: pts/hdparm-read's "Timing buffered disk reads: ... =
# #_RESULT_# MB/sec": the word before the closing MB/sec.
pts_hdparm() {
    awk '/Timing buffered disk reads/ && $NF == "MB/sec" { print $(NF - 1) }' "$1"
}

# shape: each whitespace-separated field of standard input replaced by its
# type: int, float or text (a %g figure such as 1e+06 is a float).
shape() {
    awk '{ s = ""; for (i = 1; i <= NF; i++) {
        t = "text";
        if ($i ~ /^-?[0-9]+$/) t = "int";
        else if ($i ~ /^-?[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$/) t = "float";
        s = s (i > 1 ? " " : "") t } print s }'
}

# consecutive FILE: the second field of every line of FILE is 1, 2, 3...
consecutive() {
    awk 'BEGIN { n = 0 } { if ($2 != ++n) exit 1 } END { if (n == 0) exit 1 }' "$1"
}

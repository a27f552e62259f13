#!/bin/sh
# kbench - command-line tests: each command's --help and man page list the same options
# SPDX-License-Identifier: GPL-3.0-or-later
#
# One source of truth for an option's facts is only kept if both texts
# name the same options.  For every command with a man page, the long
# options `kbench CMD --help` lists (popt's table, so what the command
# accepts) are read from its lines ("  -c, --name" or "      --name"; a
# continuation line that mentions an option is not one), and the options
# man/kbench-CMD.1 documents are the items of its OPTIONS section: the tag
# line after each .TP or .TQ there.  Each set must hold the other: an
# option --help offers without an item in the page is undocumented, an
# item for an option --help does not list is one the command refuses.
. "$(dirname "$0")/lib.sh"

CMDS="load disk micro suite compare server import"

# the command table and the pages agree on which commands these are
for c in $CMDS; do
    expect_true "man/kbench-$c.1 exists" test -f "$KBENCH_TOP_SRCDIR/man/kbench-$c.1"
done
run "$KBENCH"
for c in $CMDS; do
    expect_out_grep "$c is in the command table" "^  $c +"
done

for c in $CMDS; do
    "$KBENCH" "$c" --help >"$WORK/help-$c" 2>&1
    expect_eq "kbench $c --help exits 0" "$?" 0
    expect_py "kbench $c: --help and man/kbench-$c.1 OPTIONS name the same long options" \
        "$WORK/help-$c" "$KBENCH_TOP_SRCDIR/man/kbench-$c.1" <<'EOF'
import re, sys

help_file, page = sys.argv[1], sys.argv[2]

# popt's --help: an option line starts with two blanks and "-x, --name" or
# six blanks and "--name"; its text (and any continuation line) follows
helped = set()
for line in open(help_file, encoding="utf-8"):
    m = re.match(r"^  (?:-\S, |    )--([a-z][a-z0-9-]*)", line)
    if m:
        helped.add(m.group(1))

# man(7): the OPTIONS section's items, the line after .TP or .TQ; in
# roff source an option is written \-\-name (a name's hyphens \-)
documented = set()
lines = open(page, encoding="utf-8").read().split("\n")
section = ""
for i, line in enumerate(lines):
    if line.startswith(".SH"):
        section = line[3:].strip().strip('"')
    elif section == "OPTIONS" and line.split(" ")[0] in (".TP", ".TQ") \
            and i + 1 < len(lines):
        for m in re.finditer(r"\\-\\-([a-z](?:[a-z0-9]|\\-)*)", lines[i + 1]):
            documented.add(m.group(1).replace("\\-", "-"))

bad = False
if len(helped) < 3 or len(documented) < 3:
    print(f"too few options read: --help {sorted(helped)}, page {sorted(documented)}")
    bad = True
for o in sorted(helped - documented):
    print(f"--{o}: in --help, not an item of the page's OPTIONS")
    bad = True
for o in sorted(documented - helped):
    print(f"--{o}: an item of the page's OPTIONS, not in --help")
    bad = True
sys.exit(1 if bad else 0)
EOF
done

# the facts that once disagreed, now the same in --help, the man page
# and README.md: --warmup is 0 with --run-once, --mem-limit takes T,
# --nfs offers only NFSv3 (version=4 is refused)
"$KBENCH" load --help | tr '\n' ' ' | tr -s ' ' >"$WORK/load-help"
PAGE="$KBENCH_TOP_SRCDIR/man/kbench-load.1"
README="$KBENCH_TOP_SRCDIR/README.md"
expect_file_grep "--help: --warmup is 0 with --run-once" "$WORK/load-help" \
    'default timelimit/5; 0 with --run-once'
expect_file_grep "man: --warmup is 0 with --run-once" "$PAGE" '^or 0 with$'
expect_file_grep "README: --warmup is 0 with --run-once" "$README" \
    '^\| `--warmup=TIME` \|.*\| timelimit / 5; 0 with `--run-once` \|$'
expect_file_grep "--help: --mem-limit takes k, M, G, T" "$WORK/load-help" \
    'k, M, G, T: 2\^10, 2\^20, 2\^30, 2\^40'
expect_file_grep "README: --mem-limit takes k, M, G, T" "$README" \
    '^\| `--mem-limit=SIZE` \|.*`k`, `M`, `G`, `T`'
expect_no_grep "--help: --nfs offers no version=4" "$WORK/load-help" 'version=4'
expect_file_grep "--help: --nfs is NFSv3" "$WORK/load-help" '--nfs=nfs://SERVER/EXPORT\[\?OPTIONS\] -B nfs: the export over NFSv3'
expect_file_grep "man: version=3 is the only version" "$PAGE" '^is the default and the only version:$'
expect_bad "--nfs ...?version=4 is refused, as the texts say" '--nfs .*version=4: .*use version=3' \
    "$KBENCH" load -B nfs --nfs 'nfs://127.0.0.1/x?version=4' -t 1 1

finish

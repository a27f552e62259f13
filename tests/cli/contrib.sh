#!/bin/sh
# kbench - command-line tests: the harness definitions under contrib/ (LKP,
# mmtests, the Phoronix Test Suite) are well-formed (YAML, XML, shell), and
# their parsers, run as the harness runs them (ruby, perl, php), give the
# figures of recorded kbench documents (tests/data/contrib/) under
# kbench's own names; the PTS profile installs offline with kbench on PATH
# and its wrapper's line is the one its template reads.  No harness
# checkout is needed.
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"

C=$KBENCH_TOP_SRCDIR/contrib
R=$DATA/contrib

# expected KEY-VALUE lines worked out from a document by python, kbench's
# JSON read independently of the parsers under test
pyexp() {
    python3 - "$@" <<'PY'
import json, sys
what, path = sys.argv[1], sys.argv[2]
d = json.load(open(path))
r = d["results"]
clean = d["kind"] == "load" and not (r["errors"] or r["interrupted_signal"] or r["died"] or r["strict_stop"])
if what == "lkp-load":
    if clean:
        print("load.throughput_MBps: %s" % repr(r["throughput_MBps"]))
    print("load.max_latency_ms: %s" % repr(r["max_latency_ms"]))
    print("load.errors: %d" % r["errors"])
    for o in r["ops"]:
        if o["count"]:
            print("load.%s.p99_ms: %s" % (o["name"], repr(o["p99_ms"])))
        print("load.%s.count: %d" % (o["name"], o["count"]))
    for c in d["caveats"]:
        print("load.caveat.%s: 1" % c["key"])
elif what == "mm-tput":
    if clean:
        print(repr(r["throughput_MBps"]))
elif what == "mm-p99":
    for o in sorted((o for o in r["ops"] if o["count"]), key=lambda o: o["name"]):
        print("p99-%s %s" % (o["name"], repr(o["p99_ms"])))
PY
}

# results.failure is the one rule: a run it names failed has no
# throughput, whatever its other fields say (a client that did not stop)
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
d["results"]["failure"] = "client 0 did not stop and was killed"
json.dump(d, open(sys.argv[2], "w"))' "$R/load.json" "$WORK/failed.json"

# ---- well-formed: YAML (ruby's), XML, shell ----
if command -v ruby >/dev/null 2>&1; then
    for f in "$C"/lkp/programs/kbench/meta.yaml "$C"/lkp/jobs/*.yaml \
        "$C"/mmtests/shellpack_src/src/kbench/shellpack.yaml; do
        expect_true "YAML: ${f#"$C"/}" ruby -ryaml -e 'YAML.load_stream(File.read(ARGV[0]))' "$f"
    done
    expect_eq "LKP job: the program's suite, mode load, 60 s" \
        "$(ruby -ryaml -e 'j = YAML.load_stream(File.read(ARGV[0]))[0]; puts [j["suite"], j["kbench"]["mode"], j["runtime"]].join(" ")' \
        "$C/lkp/jobs/kbench-load.yaml")" "kbench load 60s"
else
    skip "ruby is not installed: no YAML check, no LKP parse"
fi
for f in "$C"/pts/local/*/*.xml; do
    expect_true "XML: ${f#"$C"/}" python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$f"
done
for f in "$C"/lkp/programs/kbench/run "$C"/mmtests/shellpack_src/src/kbench/kbench-bench \
    "$C"/mmtests/shellpack_src/src/kbench/kbench-install "$C"/mmtests/drivers/driver-kbench.sh \
    "$C"/mmtests/configs/config-workload-kbench-load "$C"/pts/local/*/install.sh; do
    expect_true "bash -n: ${f#"$C"/}" bash -n "$f"
done
expect_no_grep "mmtests config: kbench's variables only" "$C/mmtests/configs/config-workload-kbench-load" '^export DBENCH'
expect_file_grep "mmtests config: MMTESTS_THREAD_CUTOFF" "$C/mmtests/configs/config-workload-kbench-load" '^export MMTESTS_THREAD_CUTOFF='

# ---- LKP: programs/kbench/parse (ruby) on recorded documents ----
if command -v ruby >/dev/null 2>&1; then
    P=$C/lkp/programs/kbench/parse
    run ruby "$P" "$R/load.json"
    expect_status "LKP parse: status 0" 0
    pyexp lkp-load "$R/load.json" >"$WORK/lkp.want"
    expect_same_file "LKP parse: every figure of the document, under kbench's names" "$WORK/out" "$WORK/lkp.want"
    expect_out_grep "LKP parse: the recorded throughput" '^load\.throughput_MBps: 11\.1825$'
    expect_no_grep "LKP parse: never dbench's names" "$WORK/out" 'throughput_MB/s|^dbench'
    RESULT_ROOT=$WORK/rr
    export RESULT_ROOT
    mkdir -p "$RESULT_ROOT/kbench-document"
    cp "$R/load-errors.json" "$RESULT_ROOT/kbench-document/kbench.json"
    run ruby "$P"
    expect_status "LKP parse of RESULT_ROOT/kbench-document/kbench.json: status 0" 0
    expect_no_grep "a run with errors: no throughput" "$WORK/out" 'throughput'
    expect_out_grep "a run with errors: its errors" '^load\.errors: 642$'
    expect_out_grep "a run with errors: its caveat's key" '^load\.caveat\.errors: 1$'
    unset RESULT_ROOT
    run ruby "$P" "$WORK/failed.json"
    expect_no_grep "LKP parse: results.failure set: no throughput" "$WORK/out" 'throughput'
    # an op the measured window did not complete: a count, no percentile
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["results"]["ops"][0]["count"] = 0
json.dump(d, open(sys.argv[2], "w"))' "$R/load.json" "$WORK/zero.json"
    run ruby "$P" "$WORK/zero.json"
    expect_eq "LKP parse: no p99 for an op with no count" \
        "$(grep -c '^load\.NTCreateX\.' "$WORK/out")/$(grep '^load\.NTCreateX\.count' "$WORK/out")" \
        "1/load.NTCreateX.count: 0"
    run ruby "$P" "$R/disk.json"
    expect_eq "LKP parse, disk: the median of the runs" "$(cat "$WORK/out")" "disk.big.buffered_MBps: 959.3570632"
    run ruby "$P" "$R/micro.json"
    expect_eq "LKP parse, micro: each test and the index" "$(cat "$WORK/out")" \
        "$(printf 'micro.lat_syscall_null: 1.014738011\nmicro.byte_syscall: 55726.53462\nmicro.byte_index: 37.15102308')"
fi

# ---- LKP: programs/kbench/run, its job parameters, and parse as run-stats calls it ----
# LKP's lib functions the run script uses, with LKP's own behaviour
# (lib/debug.sh's die exits 99; lib/reproduce-log.sh's log_cmd appends the
# command unquoted to $TMP_RESULT_ROOT/reproduce.sh and runs it;
# lib/run.sh's prepare_exec_path puts $BENCHMARK_ROOT/<program>/bin first)
L=$WORK/lkp-src
mkdir -p "$L/lib" "$WORK/bm/kbench/bin"
ln -s "$KBENCH" "$WORK/bm/kbench/bin/kbench"
echo 'die() { echo "$@" >&2; exit 99; }' >"$L/lib/debug.sh"
: >"$L/lib/env.sh"
printf '%s\n' 'log_cmd() { echo "$@" >>"$TMP_RESULT_ROOT/reproduce.sh"; "$@"; }' >"$L/lib/reproduce-log.sh"
printf '%s\n' 'prepare_exec_path() { PATH=$BENCHMARK_ROOT/$1/bin:$PATH; }' >"$L/lib/run.sh"
# lkp_run RESULT_ROOT NAME=VALUE...: the program's run as bin/run-test runs
# it, its standard output kept as RESULT_ROOT/kbench
lkp_run() {
    rr=$1
    shift
    rm -rf "$rr" && mkdir -p "$rr/tmp"
    (cd "$rr/tmp" && env LKP_SRC="$L" BENCHMARK_ROOT="$WORK/bm" TMP="$rr/tmp" \
        TMP_RESULT_ROOT="$rr" RESULT_ROOT="$rr" "$@" bash "$C/lkp/programs/kbench/run") \
        >"$rr/kbench" 2>"$WORK/err"
    RC=$?
}
RR=$WORK/lkp-rr
# a parameter of the wrong form: refused before anything is logged or run
for kv in 'nr_threads=--help' 'nr_threads=1; touch X' "nr_threads=$(printf '1\ntouch X')" \
    'nr_threads=0' 'runtime=3s; touch X' 'runtime=-1' 'mode=load; touch X' \
    'loadfile=--json=X' 'loadfile=a b' 'backend=fileio;touch X' 'disk_dev=sda' \
    'micro_family=$(touch X)' 'mount_points=/mnt/a;touch X'; do
    lkp_run "$RR" mode=load runtime=1 "$kv"
    k=${kv%%=*}
    label=$(printf '%s' "$kv" | tr '\n' '|')
    expect_eq "LKP run: $label: refused (die, 99), the parameter named" \
        "$RC $(grep -c "job parameter $k must be" "$WORK/err")" "99 1"
    expect_true "LKP run: $label: nothing logged to reproduce.sh, nothing run" \
        test ! -e "$RR/reproduce.sh" -a ! -e "$RR/tmp/X" -a ! -e "$RR/kbench-document/kbench.json" -a ! -s "$RR/kbench"
done
# a run with plain parameters: its document beside LKP's files
lkp_run "$RR" mode=load nr_threads=1 runtime=1s loadfile=
expect_eq "LKP run, load: status 0" "$RC" 0
expect_eq "LKP run: reproduce.sh holds the command, every word plain" \
    "$(cat "$RR/reproduce.sh")" "kbench load -t 1 --json $RR/kbench-document/kbench.json -D $RR/tmp/kbench 1"
expect_eq "LKP run: kbench's document in kbench-document/, not LKP's kbench.json" \
    "$(jget "$RR/kbench-document/kbench.json" 'd["kind"]')/$(test -e "$RR/kbench.json" && echo there)" "load/"
# bin/run-stats: parse "$RESULT_ROOT/kbench" <"$RESULT_ROOT/kbench"
if command -v ruby >/dev/null 2>&1; then
    P=$C/lkp/programs/kbench/parse
    ruby "$P" "$RR/kbench-document/kbench.json" >"$WORK/lkp-doc.out"
    (cd "$WORK" && RESULT_ROOT=$RR ruby "$P" "$RR/kbench" <"$RR/kbench") >"$WORK/out" 2>"$WORK/err"
    expect_eq "LKP parse, the log path as run-stats gives it: status 0, no complaint" "$?/$(cat "$WORK/err")" "0/"
    expect_same_file "LKP parse, the log path: the document's figures" "$WORK/out" "$WORK/lkp-doc.out"
    expect_eq "LKP parse, the log path: the run's throughput" \
        "$(sed -n 's/^load\.throughput_MBps: //p' "$WORK/out")" "$(jget "$RR/kbench-document/kbench.json" 'd["results"]["throughput_MBps"]')"
    # dump-stat then writes LKP's stats as $RESULT_ROOT/kbench.json (flat
    # "kbench.NAME": [values]); a second stats pass reads the same figures
    python3 -c 'import json, sys
s = {}
for l in open(sys.argv[1]):
    k, v = l.rstrip("\n").split(": ", 1)
    s["kbench." + k] = [float(v)]
json.dump(s, open(sys.argv[2], "w"))' "$WORK/out" "$RR/kbench.json"
    (cd "$WORK" && RESULT_ROOT=$RR ruby "$P" "$RR/kbench" <"$RR/kbench") >"$WORK/out2" 2>"$WORK/err"
    expect_same_file "LKP parse, a second stats pass over the same result root: the same figures" "$WORK/out2" "$WORK/lkp-doc.out"
    (cd "$WORK" && RESULT_ROOT=$RR ruby "$P" </dev/null) >"$WORK/out2" 2>"$WORK/err"
    expect_same_file "LKP parse, no argument: RESULT_ROOT's document" "$WORK/out2" "$WORK/lkp-doc.out"
    # a run that left no document (killed, died): no figure, status 0
    rm -rf "$RR/kbench-document"
    (cd "$WORK" && RESULT_ROOT=$RR ruby "$P" "$RR/kbench" <"$RR/kbench") >"$WORK/out" 2>"$WORK/err"
    expect_eq "LKP parse, no document: nothing printed, status 0" "$?/$(cat "$WORK/out")" "0/"
fi

# ---- mmtests: parse-results (perl) on a results directory ----
if command -v perl >/dev/null 2>&1 && perl -MJSON::PP -e 1 2>/dev/null; then
    mkdir -p "$WORK/mm"
    cp "$R/load.json" "$WORK/mm/kbench-2.json"
    cp "$R/load-errors.json" "$WORK/mm/kbench-1.json"
    cp "$WORK/failed.json" "$WORK/mm/kbench-3.json"
    run "$C/mmtests/shellpack_src/src/kbench/parse-results" "$WORK/mm"
    expect_status "mmtests parse-results: status 0" 0
    expect_eq "mmtests: tab-separated rows of six fields" "$(awk -F '\t' 'NF != 6' "$WORK/out")" ""
    expect_eq "mmtests: tput for 2 clients only (1 had errors, 3 results.failure), the document's" \
        "$(awk -F '\t' '$1 == "tput" { print $2, $5 }' "$WORK/out")" "2 $(pyexp mm-tput "$R/load.json")"
    expect_eq "mmtests: p99 per op, the document's" \
        "$(awk -F '\t' '$1 ~ /^p99-/ && $2 == 2 { print $1, $5 }' "$WORK/out" | sort)" \
        "$(pyexp mm-p99 "$R/load.json")"
    expect_eq "mmtests: persec rows, one per measured second" \
        "$(awk -F '\t' '$1 == "persec" && $2 == 2 { print $4, $5 }' "$WORK/out" | tr '\n' ' ')" "1 9.435 2 12.93 "
else
    skip "perl with JSON::PP is not installed: no mmtests parse"
fi

# ---- PTS: the profiles hold only what PTS's schemas define ----
# every element where test-profile.xsd / results-parser.xsd put it (an
# element PTS does not know, such as DefaultValue, does nothing there)
expect_eq "PTS profiles: every element one PTS's schemas define, where they define it" \
    "$(python3 - "$DATA/contrib/pts-schema-paths.txt" "$C"/pts/local/*/*.xml <<'PY'
import sys, os, xml.dom.minidom as x
known = set(l.strip() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#"))
def walk(n, path, f):
    for c in n.childNodes:
        if c.nodeType == 1:
            p = path + "/" + c.tagName
            if "%s %s" % (os.path.basename(f), p) not in known:
                print(f.split("/local/")[1], p)
            walk(c, p, f)
for f in sys.argv[2:]:
    walk(x.parse(f), "", f)
PY
)" ""
# a result template is a literal line with one #_RESULT_# and no other
# #_..._# placeholder (PTS's parser has no #_ANY_#)
for f in "$C"/pts/local/*/results-definition.xml; do
    expect_eq "PTS ${f#"$C"/pts/local/}: each template one #_RESULT_#, no other placeholder" \
        "$(python3 -c 'import re, sys, xml.dom.minidom as x
for e in x.parse(sys.argv[1]).getElementsByTagName("OutputTemplate"):
    t = e.firstChild.data
    if t.count("#_RESULT_#") != 1 or re.findall(r"#_(?!RESULT_#)[A-Z_]*_#", t):
        print(t)' "$f")" ""
done
expect_eq "PTS kbench-micro: a parser for each test its menu offers, and none else" \
    "$(python3 -c 'import sys, xml.dom.minidom as x
menu = sorted(e.firstChild.data for e in x.parse(sys.argv[1]).getElementsByTagName("Value"))
ps = sorted(e.firstChild.data for e in x.parse(sys.argv[2]).getElementsByTagName("MatchToTestArguments"))
print(len(menu), menu == ps)' "$C/pts/local/kbench-micro/test-definition.xml" "$C/pts/local/kbench-micro/results-definition.xml")" "8 True"
expect_eq "PTS kbench-disk: its one option is PTS's auto-disks (as pts/hdparm-read's)" \
    "$(python3 -c 'import sys, xml.dom.minidom as x
print(" ".join(e.firstChild.data for e in x.parse(sys.argv[1]).getElementsByTagName("Identifier")))' "$C/pts/local/kbench-disk/test-definition.xml")" "auto-disks"

# ---- PTS: kbench-result.php and the templates ----
if command -v php >/dev/null 2>&1; then
    PHPF=$C/pts/kbench-result.php
    for p in kbench-load kbench-disk kbench-micro; do
        sed -n "/^cat > kbench-result.php <<'PHP'\$/,/^PHP\$/p" "$C/pts/local/$p/install.sh" |
            sed '1d;$d' >"$WORK/$p.php"
        expect_same_file "PTS $p: install.sh writes kbench-result.php" "$WORK/$p.php" "$PHPF"
    done
    # template TEMPLATE FILE: what PTS's result parser reads from FILE: the
    # last line holding the template's text before #_RESULT_#, split at
    # spaces, its word where the template has #_RESULT_# (it knows no
    # other placeholder in a literal template)
    template() {
        php -r '$k = "#_RESULT_#"; $t = $argv[1];
            $pre = substr($t, 0, strpos($t, $k)); $at = array_search($k, explode(" ", preg_replace("/ +/", " ", $t)));
            $line = null; foreach (file($argv[2]) as $l) if ($pre !== "" && strpos($l, $pre) !== false) $line = trim($l);
            if ($line !== null) { $w = explode(" ", preg_replace("/ +/", " ", $line)); if (isset($w[$at])) echo $w[$at], "\n"; }' "$1" "$2"
    }
    # tmpl PROFILE N [ARGS]: the Nth parser's template, or with ARGS the
    # template of the parser whose MatchToTestArguments ARGS hold
    tmpl() {
        python3 -c 'import sys, xml.dom.minidom as x
d = x.parse(sys.argv[1])
ps = d.getElementsByTagName("ResultsParser")
def text(p, n):
    e = p.getElementsByTagName(n)
    return e[0].firstChild.data if e else ""
if len(sys.argv) > 3:
    ps = [p for p in ps if text(p, "MatchToTestArguments") in sys.argv[3]]
print(text(ps[int(sys.argv[2])], "OutputTemplate"))' "$C/pts/local/$1/results-definition.xml" "$2" ${3:+"$3"}
    }
    run php "$PHPF" "$R/load.json"
    expect_status "PTS: kbench-result.php: status 0" 0
    expect_eq "PTS kbench-load: its template reads the document's throughput" \
        "$(template "$(tmpl kbench-load 0)" "$WORK/out")" 11.1825
    expect_eq "PTS kbench-load: its second template the largest latency" \
        "$(template "$(tmpl kbench-load 1)" "$WORK/out")" 17.0766
    run php "$PHPF" "$WORK/failed.json"
    expect_status "PTS: results.failure set: status 1" 1
    run php "$PHPF" "$R/load-errors.json"
    expect_status "PTS: a run with errors: status 1" 1
    expect_eq "PTS: a run with errors: no figure" "$(cat "$WORK/out")" ""
    run php "$PHPF" "$R/disk.json"
    expect_eq "PTS kbench-disk: its template reads the median" \
        "$(template "$(tmpl kbench-disk 0)" "$WORK/out")" 959.36
    run php "$PHPF" "$R/micro.json"
    expect_eq "PTS kbench-micro: its template reads the us test only" \
        "$(template "$(tmpl kbench-micro 0 lat_syscall_null)" "$WORK/out")" 1.01474
    expect_eq "PTS kbench-micro: one parser a test, chosen by the test's argument" \
        "$(tmpl kbench-micro 0 lat_pipe_1cpu)" "kbench micro lat_pipe_1cpu: #_RESULT_# us"
    # the profile installed offline (kbench on PATH) and run once, briefly
    I=$WORK/pts
    mkdir -p "$I/bin"
    ln -s "$KBENCH" "$I/bin/kbench"
    cp "$C/pts/local/kbench-load/install.sh" "$I/"
    (cd "$I" && HOME=$I PATH=$I/bin:$PATH sh ./install.sh) >"$WORK/out" 2>"$WORK/err"
    expect_eq "PTS kbench-load: install.sh, offline: status 0" "$(cat "$I/install-exit-status")" 0
    (cd "$I" && HOME=$I LOG_FILE=$I/log KBENCH_RUNTIME=1 KBENCH_WARMUP=0 ./kbench-load 1) >"$WORK/out" 2>"$WORK/err"
    expect_eq "PTS kbench-load: the run's status" "$(cat "$I/test-exit-status")" 0
    expect_eq "PTS kbench-load: the template reads the run's document" \
        "$(template "$(tmpl kbench-load 0)" "$I/log")" \
        "$(jget "$I/kbench.json" '"%.4f" % d["results"]["throughput_MBps"]')"
    expect_true "PTS kbench-load: its work directory is gone" test ! -e "$I/kbench-work"
else
    skip "php-cli is not installed: no PTS check"
fi
finish

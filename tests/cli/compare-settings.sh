#!/bin/sh
# kbench - command-line tests: compare and the machine settings recorded
# with the runs (system.settings, a disk row's device_info): results files
# made to differ in one setting at a time name that setting above the
# table and caveat settings_differ on the rows it can move, and on no
# other; files without the settings (an older kbench) or with "unknown"
# differ in nothing; the seeds' machine line in the runs and lkml forms
# SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/lib.sh"
cd "$WORK" || exit 1

# four rows, one of each kind a setting can move: a load, a disk test, a
# memory latency, a system call; B's figures tripled (a verdict each)
mk_results a0.json base "load 1=100,101,102,103" "disk -t=100,101,102,103" \
    "lat_mem_l1=100,101,102,103" "lat_syscall_null=100,101,102,103"
mk_results b0.json new "load 1=300,303,306,309" "disk -t=300,303,306,309" \
    "lat_mem_l1=300,303,306,309" "lat_syscall_null=300,303,306,309"

# settings IN OUT PYTHON: OUT is IN with the settings every run records,
# then changed by PYTHON (s: system.settings, d: the document, dev: the
# disk row's device_info)
settings() {
    python3 - "$1" "$2" "$3" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["system"]["settings"] = {
    "cmdline": "BOOT_IMAGE=/vmlinuz-6.1 root=/dev/vda quiet", "kernel_config": "fnv1a64:01",
    "kernel_config_source": "/proc/config.gz", "preempt": "voluntary", "hz": 250,
    "mitigations": {"spectre_v2": "Mitigation: Retpolines", "meltdown": "Mitigation: PTI"},
    "governor": "performance", "boost": "off", "cpu_mhz": 2400, "cpu_mhz_from": "cpuinfo",
    "smt": "on", "numa_nodes": 1, "thp_enabled": "madvise", "thp_defrag": "madvise",
    "swappiness": 60, "dirty_ratio": 20, "dirty_background_ratio": 10, "dirty_bytes": 0,
    "dirty_background_bytes": 0, "build": "gcc 12.2.0, optimised",
    "loadfile_digest": "fnv1a64:02"}
d["system"]["mem_total_kB"] = 8192000
d["system"]["disk"] = {"device": "/dev/sdz", "settings": {"dma": "on (UDMA/133)",
                       "scheduler": "mq-deadline", "read_ahead_kb": 128}}
dev = None
for t in d["tests"]:
    if t["name"].startswith("disk"):
        t["params"] = {"command": "disk", "test": "buffered", "device": "/dev/sdz"}
        dev = t["params"]["device_info"] = {"scheduler": "mq-deadline", "read_ahead_kb": 128,
                                            "write_cache": "write back", "rotational": True}
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
EOF
}

# caveated NAME B_PYTHON ROWS: B changed by B_PYTHON against A as made;
# exactly the rows ROWS (a regex of names, or "none") carry settings_differ,
# in the table, the JSON (kernel_alone false on those alone) and the runs form
caveated() {
    cname=$1 code=$2 rows=$3
    settings a0.json a.json "pass"
    settings b0.json b.json "$code"
    expect_rc "$cname: exit 0" 0 "$KBENCH" compare --json a.json b.json
    expect_py "$cname: JSON: settings_differ on $rows only, kernel_alone false there" "$WORK/out" "$rows" <<'EOF'
import json, re, sys
d = json.load(open(sys.argv[1]))
for r in d["rows"]:
    b = r["files"][1]
    has = "settings_differ" in [c["key"] for c in b["caveats"]]
    want = sys.argv[2] != "none" and re.fullmatch(sys.argv[2], r["test"]) is not None
    assert has == want, (r["test"], has, want)
    assert b["kernel_alone"] == (not want), (r["test"], b["kernel_alone"])
    assert "settings_differ" not in [c["key"] for c in r["files"][0]["caveats"]], r["test"]
EOF
    run "$KBENCH" compare a.json b.json
    if [ "$rows" = none ]; then
        expect_no_grep "$cname: no row caveated" "$WORK/out" 'settings_differ \(|kernel or settings'
    else
        expect_out_grep "$cname: the settings named above the table" '^settings that differ '
        want=$(python3 -c 'import re, sys
print(sum(1 for n in ["load 1", "disk -t", "lat_mem_l1", "lat_syscall_null"]
          if re.fullmatch(sys.argv[1], n)))' "$rows")
        expect_lines "$cname: the $want caveated rows read 'kernel or settings'" -eq "$want" \
            "$WORK/out" '(better|worse) \(p=0\.029, q=0\.0286\), kernel or settings  \[caveats: settings_differ \(B: '
    fi
}

# ---- one setting at a time ----
caveated "the same settings" "pass" none
expect_no_grep "the same settings: none named" "$WORK/out" 'settings that differ|^  B: '
caveated "governor powersave: every timing" 's["governor"] = "powersave"' '.*'
caveated "mitigations: every timing" 's["mitigations"]["spectre_v2"] = "Vulnerable"' '.*'
caveated "THP: memory latencies alone" 's["thp_enabled"] = "always"' 'lat_mem_l1'
caveated "swappiness: load alone" 's["swappiness"] = 10' 'load 1'
caveated "dirty ratio: load (and file writes) alone" 's["dirty_ratio"] = 40' 'load 1'
caveated "the loadfile's text: load alone" 's["loadfile_digest"] = "fnv1a64:03"' 'load 1'
caveated "the disk's scheduler: disk alone" 'dev["scheduler"] = "none"' 'disk -t'
caveated "the disk's read-ahead: disk alone" 'dev["read_ahead_kb"] = 4096' 'disk -t'
caveated "the disk's write cache: disk alone" 'dev["write_cache"] = "write through"' 'disk -t'
caveated "DMA off: disk alone" 'd["system"]["disk"]["settings"]["dma"] = "off (PIO4)"' 'disk -t'
caveated "kbench's build: micro alone" 's["build"] = "gcc 12.2.0, not optimised"' 'lat_mem_l1|lat_syscall_null'
caveated "another kbench version: every timing" 'd["kbench_version"] = "0.2.0"' '.*'
caveated "the command line: every timing" 's["cmdline"] += " mitigations=off"' '.*'
expect_out_grep "the command line: the words that differ" '^  B: cmdline: \+mitigations=off \(moves every timing\)$'
expect_out_grep "the command line: the caveat says which" '\[caveats: settings_differ \(B: cmdline \+mitigations=off\)\]$'
caveated "the command line: the kernel's image alone differs" \
    's["cmdline"] = s["cmdline"].replace("6.1", "6.2")' none
caveated "the clock within 1% (read at an instant)" 's["cpu_mhz"] = 2410' none
caveated "the clock beyond 1%" 's["cpu_mhz"] = 1200' '.*'
caveated "the kernel's config: part of the kernel, no row" 's["kernel_config"] = "fnv1a64:09"' none
run "$KBENCH" compare a.json b.json
expect_out_grep "the kernel's config: named all the same" '^  B: kernel_config: A fnv1a64:01, B fnv1a64:09 \(moves nothing alone'
caveated "unknown never differs" 's["governor"] = "unknown"; s["mitigations"] = "unknown"' none
caveated "an older file without settings never differs" \
    'del d["system"]["settings"]; del d["system"]["disk"]; del dev["scheduler"]' none

# ---- two at once: each named, each row with what moves it ----
settings a0.json a.json "pass"
settings b0.json b.json 's["thp_enabled"] = "always"; s["swappiness"] = 10; dev["scheduler"] = "none"'
expect_rc "three settings: exit 0" 0 "$KBENCH" compare a.json b.json
expect_lines "three settings: three lines above the table" -eq 3 "$WORK/out" '^  B: (thp_enabled|swappiness|disk scheduler): A [^,]+, B [^ ]+ \(moves '
expect_out_grep "three settings: THP on the memory row" '^ +B +4 .*\[caveats: settings_differ \(B: thp_enabled=always\)\]$'
expect_out_grep "three settings: the scheduler on the disk row" 'settings_differ \(B: disk\.scheduler=none\)\]$'
expect_lines "three settings: the system call row has none" -eq 1 "$WORK/out" '^ +B +4 +304\.5 .* (better|worse) \(p=0\.029, q=0\.0286\)$'

# ---- a setting changed during a series: each run's own record ----
# every run's document holds the settings as the series' start; run 3's
# governor (every row) and run 2's THP (the memory row) changed
settings a0.json a.json 'import copy
for t in d["tests"]:
    for i, r in enumerate(t["runs"]):
        rs = copy.deepcopy(s)
        rs["loadfile_digest"] = "unknown"
        if i == 2: rs["governor"] = "schedutil"
        if i == 1: rs["thp_enabled"] = "never"
        r["document"] = {"kbench_version": "0.1.0", "system": {"kernel": "base", "hostname": "h", "settings": rs}}'
settings b0.json b.json pass
expect_rc "changed within A's series" 0 "$KBENCH" compare --json a.json b.json
expect_py "settings_changed on A's runs that differ, by what each row can be moved by" "$WORK/out" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["rows"]:
    a = {c["key"]: c for c in r["files"][0]["caveats"]}
    want = [2, 3] if r["test"] == "lat_mem_l1" else [3]
    assert a["settings_changed"]["runs"] == want, (r["test"], a)
    assert "settings_changed" not in [c["key"] for c in r["files"][1]["caveats"]], r["test"]
    assert r["files"][1]["kernel_alone"], r["test"]   # A's and B's series start alike
assert d["settings_differ"] == [], d["settings_differ"]
EOF2
expect_rc "changed within A's series: the table" 0 "$KBENCH" compare a.json b.json
expect_lines "the table: every A line carries it" -eq 4 "$WORK/out" ' A +4 .*\[caveats: settings_changed\]$'

# ---- the other forms ----
settings a0.json a.json pass
settings b0.json b.json 's["governor"] = "powersave"'
expect_rc "lkml" 0 "$KBENCH" compare --style lkml a.json b.json
expect_out_grep "lkml: the setting named" '^  B: governor: A performance, B powersave \(moves every timing\)$'
expect_out_grep "lkml: the verdict is not the kernel's alone" ' better \(kernel or settings\)  \[caveats B: settings_differ \(B: governor=powersave\)\]$'
expect_out_grep "lkml: the machine under the uname line" '^\* 2400 MHz cpu, DMA \(UDMA/133\), 8000M$'
expect_rc "runs" 0 "$KBENCH" compare --style runs a.json b.json
expect_out_grep "runs: the setting named" '^  B: governor: A performance, B powersave'
expect_out_grep "runs: the machine as the seeds print it: clock, CPU, DMA, memory" '^h: 2400 MHz cpu, DMA \(UDMA/133\), 8000M$'
expect_out_grep "runs: B's figures marked" '^hdparm -t 300\.00\+ 303\.00\+ 306\.00\+ 309\.00\+$'
expect_out_grep "runs: A's not" '^hdparm -t 100\.00 101\.00 102\.00 103\.00$'
expect_out_grep "runs: the caveat listed" '^  new hdparm -t: settings_differ \(runs 1, 2, 3, 4\)$'
settings a0.json a.json 'd["system"]["disk"]["settings"]["dma"] = "unknown"'
expect_rc "runs, DMA unknown" 0 "$KBENCH" compare --style runs a.json b.json
expect_out_grep "runs: no DMA shown: the scheduler and read-ahead" '^h: 2400 MHz cpu, scheduler mq-deadline, read-ahead 128 KiB, 8000M$'
if command -v gnuplot >/dev/null 2>&1; then
    settings a0.json a.json "pass"
    expect_rc "plot" 0 "$KBENCH" compare --plot p.svg a.json b.json
    expect_file_grep "plot: the row's label says kernel or settings" p.svg 'B: kernel or settings'
else
    skip "--plot: no gnuplot"
fi
finish

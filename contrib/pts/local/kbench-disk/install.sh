#!/bin/sh
# kbench-disk's install: the kbench on PATH when there is one (nothing to fetch or
# build), else a release tarball (make dist's kbench-VERSION.tar.gz) put in
# this directory, built into $HOME/kbench_.  Writes the wrapper the suite
# runs and kbench-result.php, which reads the figure from kbench's JSON
# document (the same file as contrib/pts/kbench-result.php).
if command -v kbench >/dev/null 2>&1; then
	KB=$(command -v kbench)
	echo 0 > ~/install-exit-status
else
	tar -xf kbench-*.tar.gz || { echo 1 > ~/install-exit-status; exit 1; }
	cd kbench-*/ || exit 1
	./configure --prefix="$HOME/kbench_" && make -j "${NUM_CPU_JOBS:-2}" && make install
	echo $? > ~/install-exit-status
	cd .. && rm -rf kbench-*/
	KB=$HOME/kbench_/bin/kbench
fi

cat > kbench-result.php <<'PHP'
<?php
// kbench's figure for the Phoronix Test Suite, read from kbench's JSON
// document: one line "kbench KIND WHAT: VALUE UNIT" that the profile's
// results-definition.xml matches.  Usage: php kbench-result.php FILE.json
// Prints nothing for a run without a figure (errors, a signal).
$doc = json_decode(@file_get_contents($argv[1] ?? ''), true);
if (!is_array($doc) || !isset($doc['kind']))
	exit(1);
$r = $doc['results'];
switch ($doc['kind']) {
case 'load':
	// results.failure is kbench's one rule (null: a result); an older
	// kbench's document lacks it: judge by its fields then
	if (array_key_exists('failure', $r) ? $r['failure'] !== null :
	    ($r['errors'] || $r['interrupted_signal'] || $r['died'] || $r['strict_stop']))
		exit(1);
	printf("kbench load throughput: %.4f MB/sec\n", $r['throughput_MBps']);
	printf("kbench load max latency: %.4f ms\n", $r['max_latency_ms']);
	break;
case 'disk':
	foreach ($r as $dev) {
		if (isset($dev['buffered']['median']))
			printf("kbench disk buffered reads: %.2f MB/sec\n", $dev['buffered']['median']);
		if (isset($dev['cached']['median']))
			printf("kbench disk cached reads: %.2f MB/sec\n", $dev['cached']['median']);
	}
	break;
case 'micro':
	foreach ($r['tests'] as $t)
		printf("kbench micro %s: %.6g %s\n", $t['name'], $t['value'], $t['unit']);
	break;
default:
	exit(1);
}
PHP

cat > kbench-disk <<EOF
#!/bin/sh
rm -rf kbench-work kbench.json && mkdir kbench-work
"$KB" disk -t --runs 3 --json kbench.json "\$@" > kbench.log 2>&1
echo \$? > ~/test-exit-status
\${PHP_BIN:-php} kbench-result.php kbench.json > \$LOG_FILE
rm -rf kbench-work
EOF
chmod +x kbench-disk

# kbench's mmtests driver: the shellpack built from shellpack_src/src/kbench
$SHELLPACK_TOPLEVEL/shellpack_src/src/refresh.sh kbench

run_bench() {
	$SHELLPACK_INCLUDE/shellpack-bench-kbench
	return $?
}

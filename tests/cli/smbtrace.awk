# kbench - the ops of one pass of a dbench 1 trace, counted from the rules
# of kbench-loadfile(5) (DBENCH 1 FORMAT), independently of kbench's code.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Prints "op NAME COUNT" for each operation, "bytes READ WRITTEN" (MB,
# 10^6 bytes, 3 decimals), "bytes_total N" (read and written, in bytes)
# and "ignored N" (lines counted, not replayed).
# Used by tests/cli/loadfile-formats.sh and tests/cli/loadfile-dbench1.sh.

function lc(s) { return tolower(s) }

# the fields of the current line, found by key (the first value of a key)
function fields(   i, t, s) {
    path1 = path2 = handle = offset = size = sub_ = ""
    err = ($3 ~ /^ERR/); exists = 0
    for (i = 3; err && i <= NF && $i ~ /^ERR/; i++)
        if ($i == "ERRfilexists") exists = 1
    for (i = 3; i <= NF; i++) {
        t = lc($i); s = t
        if (substr(s, 1, 10) == "transact2_") s = substr(s, 11)
        if (s in subs) { sub_ = s; continue }
        if (i == NF) break
        if (t in pathk) { if (path1 == "") path1 = $(i + 1); else if (path2 == "") path2 = $(i + 1) }
        else if (t in newk) path2 = $(i + 1)
        else if (t in handlek) { if (handle == "") handle = $(i + 1) }
        else if (t in offk) { if (offset == "") offset = $(i + 1) }
        else if (t in sizek) { if (size == "") size = $(i + 1) }
        else continue
        i++
    }
}

function keys(arr, list,   n, k, i) {
    n = split(list, k, " ")
    for (i = 1; i <= n; i++) arr[k[i]] = 1
}

BEGIN {
    keys(pathk, "path name old from pattern mask file oldpath")
    keys(newk, "new to newname newpath")
    keys(handlek, "handle fnum fid")
    keys(offk, "offset ofs pos")
    keys(sizek, "size count length len bytecount maxcount datasize")
    keys(subs, "findfirst findnext qpathinfo qfileinfo qfsinfo setfileinfo setpathinfo")
    keys(modelled, "SMBopenX SMBgetatr SMBunlink SMBclose SMBflush SMBwrite SMBwritebraw " \
         "SMBwriteX SMBread SMBreadbraw SMBreadX SMBmkdir SMBrmdir SMBsetatr SMBmv " \
         "SMBlockingX SMBdskattr SMBtrans2 CREATE")
    opname["SMBopenX"] = "NTCreateX"
    opname["SMBgetatr"] = "QUERY_PATH_INFORMATION"
    opname["SMBunlink"] = "Unlink"
}

/^[ \t]*(#|$)/ { next }

{ fields() }

# the three commands carried out at their reply, on their request's path
$1 in opname && $2 == "REQUEST" {
    if (pending[$1]) ignored++        # a request that got no reply
    pending[$1] = 1
    next
}
$1 in opname && $2 == "REPLY" {
    if (!pending[$1]) { ignored++; next }
    pending[$1] = 0
    n[opname[$1]]++
    next
}

!($1 in modelled) { ignored++; next }  # both lines of an unmodelled command
$2 != "REQUEST" { next }               # the reply of a request-driven one

$1 == "SMBclose" { n["Close"]++ }
$1 == "SMBflush" { if (handle != "") n["Flush"]++; else ignored++ }
$1 ~ /^SMBwrite(braw|X)?$/ { n["WriteX"]++; w += size }
$1 ~ /^SMBread(braw|X)?$/ { n["ReadX"]++; r += size }
$1 == "SMBmkdir" { n["Mkdir"]++ }
$1 == "SMBrmdir" { n["Rmdir"]++ }
$1 == "SMBmv" { n["Rename"]++ }
$1 == "SMBsetatr" { n["SET_FILE_INFORMATION"]++ }
$1 == "SMBlockingX" { if (offset != "" || size != "") n["LockX"]++; else ignored++ }
$1 == "SMBdskattr" { n["QUERY_FS_INFORMATION"]++ }
$1 == "SMBtrans2" {
    if (sub_ == "findfirst") { n["FIND_FIRST"]++; found = 1 }
    else if (sub_ == "findnext") { if (found) n["FIND_FIRST"]++; else ignored++ }
    else if (sub_ == "qpathinfo") n["QUERY_PATH_INFORMATION"]++
    else if (sub_ == "qfileinfo") { if (handle != "") n["QUERY_FILE_INFORMATION"]++; else ignored++ }
    else if (sub_ == "qfsinfo") n["QUERY_FS_INFORMATION"]++
    else ignored++
}
$1 == "CREATE" {
    n["NTCreateX"]++; n["Close"]++
    n["WriteX"] += int((size + 1048575) / 1048576); w += size
}

END {
    for (c in pending) if (pending[c]) ignored++
    for (o in n) print "op", o, n[o]
    printf "bytes %.3f %.3f\n", r / 1e6, w / 1e6
    printf "bytes_total %.0f\n", r + w
    printf "bytes_written %.0f\n", w
    print "ignored", ignored + 0
}

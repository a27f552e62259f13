#!/usr/bin/env python3
# kbench - command-line tests: where the labels of compare's charts fall
# in the picture gnuplot drew, and whether any two of them overlap
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   gpboxes.py wrap SCRIPT    stands in for gnuplot (a `gnuplot` on PATH
#                             runs it): runs the real gnuplot ($KB_GP_REAL)
#                             on kbench's SCRIPT with, after each plot, the
#                             plot's own mapping from data to pixels and
#                             every label and mark it placed, as gnuplot
#                             computed them (`set table`), printed to
#                             $KB_GP_DIR/boxes.txt
#   gpboxes.py check DIR [--titles NAME]
#                             reads DIR/boxes.txt; says which labels of
#                             which picture overlap another label, a mark
#                             or the picture's edge; exits 1 if any does.
#                             With --titles, in the pictures whose file
#                             name holds NAME, also each plot's title (`set
#                             title`, its lines joined by "\n") and the
#                             page's (`set multiplot ... title`): none
#                             outside the picture, over another title or
#                             over a plot area, no two plot areas over each
#                             other, and a key only in a plot area with no
#                             border (the page's key, drawn apart)
#
# A label's box (and a title's, its lines one over the other just above
# its plot area, centred on it) is the layout's own measure: gnuplot's character cell
# (GPVAL_TERM_HCHAR wide a character, scaled by the label's font) from
# its anchor plus its offset, in pixels; a mark's box is measured once in
# a picture gnuplot draws of that mark alone.  The y tic labels (a row's
# name) must be a text's height apart.
import json
import os
import re
import struct
import subprocess
import sys
import zlib

SEP = ", \\\n     "  # kbench's separator between a plot's clauses


def wrap(script):
    real = os.environ["KB_GP_REAL"]
    out = os.path.join(os.environ["KB_GP_DIR"], "boxes.txt")
    src = open(script).read()
    lines = src.split("\n")
    res, i, n, state = [], 0, 0, {"logx": False, "logy": False, "ytics": None,
                                   "labels": [], "font": 10, "title": None, "page": None,
                                   "key": True, "border": True}
    while i < len(lines):
        ln = lines[i]
        m = re.match(r"set term\w* \w+ .*font '[^,]*,(\d+)'", ln)
        if m:
            state["font"] = int(m.group(1))
        m = re.match(r"set title (.*?)( noenhanced)?$", ln)
        if m:
            state["title"] = [t.replace("''", "'") for t in
                              re.findall(r"'((?:[^']|'')*)'", m.group(1))]
        if re.match(r"unset title", ln):
            state["title"] = None
        m = re.match(r"set multiplot.* title '((?:[^']|'')*)'", ln)
        if m:
            state["page"] = m.group(1).replace("''", "'")
        for flag, what in (("key", "key"), ("border", "border"), ("logx", "logscale x"),
                           ("logy", "logscale y")):
            if ln.startswith("unset " + what):
                state[flag] = False
            elif ln.startswith("set " + what):
                state[flag] = True
        if re.match(r"set ytics auto|unset ytics", ln):
            state["ytics"] = None
        m = re.match(r"set ytics ([^(]*)\((.*)\)$", ln)
        if m:
            fm = re.search(r"font ',(\d+)'", m.group(1))
            tics = re.findall(r"\"((?:[^\"\\]|\\.)*)\" ([-0-9.e]+)", m.group(2))
            state["ytics"] = {"font": int(fm.group(1)) if fm else None,
                              "tics": [[t, float(p)] for t, p in tics]}
        m = re.match(r"set label '([^']*)' at ([-0-9.e]+), graph ([-0-9.e]+) offset "
                     r"([-0-9.e]+),([-0-9.e]+)", ln)
        if m:
            state["labels"].append([m.group(1), float(m.group(2)), float(m.group(3)),
                                    float(m.group(4)), float(m.group(5))])
        if not ln.startswith("plot "):
            res.append(ln)
            i += 1
            continue
        cmd = [ln]
        while cmd[-1].endswith("\\") and i + 1 < len(lines):
            i += 1
            cmd.append(lines[i])
        i += 1
        whole = "\n".join(cmd)
        res.append(whole)
        clauses = whole[len("plot "):].split(SEP)
        res.append("set print '%s' append" % out)
        res.append('print sprintf("MAP\\t%s\\t%.12g\\t%.12g\\t%.12g\\t%.12g\\t%.12g\\t%.12g\\t'
                   '%.12g\\t%.12g\\t%.12g\\t%.12g\\t%.12g\\t%.12g", GPVAL_OUTPUT, '
                   'GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, GPVAL_TERM_YMIN, GPVAL_TERM_YMAX, '
                   'GPVAL_X_MIN, GPVAL_X_MAX, GPVAL_Y_MIN, GPVAL_Y_MAX, '
                   'GPVAL_TERM_HCHAR * 1.0 / GPVAL_TERM_SCALE, '
                   'GPVAL_TERM_VCHAR * 1.0 / GPVAL_TERM_SCALE, '
                   'GPVAL_TERM_XSIZE * 1.0 / GPVAL_TERM_SCALE, '
                   'GPVAL_TERM_YSIZE * 1.0 / GPVAL_TERM_SCALE)')
        res.append("print \"STATE\\t\" . '%s'" % json.dumps(state).replace("'", "''"))
        for c in clauses:
            c = c.rstrip("\\").rstrip()
            if not c.startswith("$"):
                continue
            m = re.search(r"with (labels|points)(.*)$", c)
            if not m:
                continue
            rest = m.group(2)
            if m.group(1) == "labels":
                fm = re.search(r"font ',(\d+)'", rest)
                om = re.search(r"offset ([-0-9.]+),([-0-9.]+)", rest)
                just = "left" if " left" in rest else "right" if " right" in rest else "center"
                desc = ["LBL", str(int(fm.group(1)) if fm else state["font"]), just,
                        om.group(1) if om else "0", om.group(2) if om else "0"]
            else:
                pt = re.search(r"pt (-?\d+)", rest)
                ps = re.search(r"ps ([0-9.]+)", rest)
                desc = ["PTS", pt.group(1) if pt else "1", ps.group(1) if ps else "1"]
            body = re.sub(r"\s(title\s+'(?:[^']|'')*'|notitle)(\s+noenhanced)?", " notitle", c)
            res.append("set table $KBT")
            res.append("plot " + body)
            res.append("unset table")
            res.append('print "%s"' % "\\t".join(desc))
            res.append("print $KBT")
        res.append("print 'END'")
        res.append("set print")
    fixed = script + ".boxes"
    open(fixed, "w").write("\n".join(res))
    r = subprocess.run([real, fixed])
    os.unlink(fixed)
    return r.returncode


def png_pixels(path):
    """Width, height and rows of RGB(A) tuples of an 8-bit PNG."""
    data = open(path, "rb").read()
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        ln, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + ln]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), (depth, ctype)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + ln
    raw, rows, prev = zlib.decompress(idat), [], bytearray(w * bpp)
    stride = w * bpp
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, rows, bpp


MARKS = {}


def mark_half(pt, ps, font):
    """Half the width and height in pixels of mark pt at size ps, as
    pngcairo draws it with a terminal font of font points."""
    key = (pt, ps, font)
    if key in MARKS:
        return MARKS[key]
    d = os.environ.get("KB_GP_DIR", "/tmp")
    png = os.path.join(d, "mark-%s-%s-%s.png" % key)
    script = png + ".gp"
    open(script, "w").write(
        "set term pngcairo size 200,200 font 'sans,%d'\nset output '%s'\nunset border\n"
        "unset tics\nunset key\nset margins 0,0,0,0\nset xrange [-1:1]\nset yrange [-1:1]\n"
        "$M << EOD\n0 0\nEOD\nplot $M using 1:2 with points pt %s ps %s lc black\n"
        % (font, png, pt, ps))
    subprocess.run([os.environ.get("KB_GP_REAL", "gnuplot"), script], check=True)
    w, h, rows, bpp = png_pixels(png)
    xs, ys = [], []
    for y, line in enumerate(rows):
        for x in range(w):
            if line[x * bpp] < 128:
                xs.append(x)
                ys.append(y)
    MARKS[key] = ((max(xs) - min(xs) + 1) / 2, (max(ys) - min(ys) + 1) / 2) if xs else (0, 0)
    return MARKS[key]


def overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def titles(pages, name):
    """What is wrong with the titles, plot areas and keys of pages."""
    bad, n, by = [], 0, {}
    for p in pages:
        if name in os.path.basename(p["out"]):
            by.setdefault(p["out"], []).append(p)
    for out, plots in by.items():
        boxes, areas = [], []
        for p in plots:
            (txmin, txmax, tymin, tymax, _, _, _, _, hchar, vchar, W, H) = p["m"]
            st = p["state"]
            area = (txmin, H - tymax, txmax, H - tymin, "the plot area of %r" % (st["title"],))
            if st["key"] and st["border"]:
                bad.append("%s: %r has a key in or beside its plot area" % (out, st["title"]))
            areas.append(area)
            if st["title"]:
                w = max(len(t) for t in st["title"]) * hchar
                x = (txmin + txmax) / 2
                boxes.append((x - w / 2, H - tymax - len(st["title"]) * vchar, x + w / 2,
                              H - tymax, "title %r" % "\\n".join(st["title"])))
        st, m = plots[0]["state"], plots[0]["m"]
        if st["page"]:
            w = len(st["page"]) * m[8]
            boxes.append((m[10] / 2 - w / 2, 0, m[10] / 2 + w / 2, m[9],
                          "page title %r" % st["page"]))
        n += len(boxes)
        W, H = m[10], m[11]
        for i, a in enumerate(boxes):
            if a[0] < 0 or a[1] < 0 or a[2] > W or a[3] > H:
                bad.append("%s: %s outside the picture (%.0f,%.0f)-(%.0f,%.0f) of %dx%d"
                           % ((out, a[4]) + a[:4] + (W, H)))
            for b in boxes[i + 1:] + areas:
                if overlap(a, b):
                    bad.append("%s: %s at (%.0f,%.0f)-(%.0f,%.0f) over %s at "
                               "(%.0f,%.0f)-(%.0f,%.0f)" % ((out, a[4]) + a[:4] + (b[4],) + b[:4]))
        for i, a in enumerate(areas):
            for b in areas[i + 1:]:
                if overlap(a, b):
                    bad.append("%s: %s over %s" % (out, a[4], b[4]))
    return n, bad


def check(d, want_titles=None):
    pages, cur = [], None
    for ln in open(os.path.join(d, "boxes.txt")).read().split("\n"):
        if ln.startswith("MAP\t"):
            f = ln.split("\t")
            cur = {"out": f[1], "m": [float(x) for x in f[2:]], "labels": [], "marks": []}
            pages.append(cur)
        elif ln.startswith("STATE\t"):
            cur["state"] = json.loads(ln[6:])
        elif ln.startswith("LBL\t") or ln.startswith("PTS\t"):
            cur["clause"] = ln.split("\t")
        elif ln.startswith("END"):
            cur = None
        elif cur is not None and ln.strip() and not ln.startswith("#"):
            m = re.match(r"\s*(\S+)\s+(\S+)\s*(?:\"(.*)\")?", ln)
            if not m:
                continue
            x, y = float(m.group(1)), float(m.group(2))
            c = cur["clause"]
            if c[0] == "LBL":
                cur["labels"].append((m.group(3) or "", x, y, int(c[1]), c[2], float(c[3]),
                                      float(c[4])))
            else:
                cur["marks"].append((x, y, c[1], c[2]))
    bad, counts = [], {"labels": 0, "marks": 0, "tics": 0, "pages": len(pages)}
    for p in pages:
        (txmin, txmax, tymin, tymax, xmin, xmax, ymin, ymax, hchar, vchar, W, H) = p["m"]
        st, font = p["state"], p["state"]["font"]
        import math

        def f(v, log):
            return math.log10(v) if log else v

        def px(x, y, ygraph=False):
            fx = (f(x, st["logx"]) - f(xmin, st["logx"])) / (f(xmax, st["logx"]) - f(xmin, st["logx"]))
            fy = y if ygraph else (f(y, st["logy"]) - f(ymin, st["logy"])) / (
                f(ymax, st["logy"]) - f(ymin, st["logy"]))
            return txmin + fx * (txmax - txmin), H - (tymin + fy * (tymax - tymin))

        def box(text, X, Y, fs, just, ox, oy):
            w, h = len(text) * hchar * fs / font, vchar / 1.5 * fs / font
            X, Y = X + ox * hchar, Y - oy * vchar
            x0 = X if just == "left" else X - w if just == "right" else X - w / 2
            return (x0, Y - h / 2, x0 + w, Y + h / 2, text)

        boxes = []
        for (text, x, y, fs, just, ox, oy) in p["labels"]:
            if text == "":
                continue
            X, Y = px(x, y)
            boxes.append(box(text, X, Y, fs, just, ox, oy))
        for (text, x, gy, ox, oy) in st["labels"]:
            X, Y = px(x, gy, True)
            boxes.append(box(text, X, Y, font, "left", ox, oy))
        marks = []
        for (x, y, pt, ps) in p["marks"]:
            hw, hh = mark_half(pt, ps, font)
            X, Y = px(x, y)
            marks.append((X - hw, Y - hh, X + hw, Y + hh, "mark pt %s ps %s" % (pt, ps)))
        counts["labels"] += len(boxes)
        counts["marks"] += len(marks)
        for i, a in enumerate(boxes):
            if a[0] < 0 or a[1] < 0 or a[2] > W or a[3] > H:
                bad.append("%s: label %r outside the picture (%.0f,%.0f)-(%.0f,%.0f) of %dx%d"
                           % (p["out"], a[4], a[0], a[1], a[2], a[3], W, H))
            for b in boxes[i + 1:] + marks:
                if overlap(a, b):
                    bad.append("%s: label %r at (%.0f,%.0f)-(%.0f,%.0f) overlaps %r at "
                               "(%.0f,%.0f)-(%.0f,%.0f)" % ((p["out"],) + (a[4],) + a[:4] +
                                                            (b[4],) + b[:4]))
        if st["ytics"]:
            fs = st["ytics"]["font"] or font
            ys = sorted(px(xmin, pos)[1] for _, pos in st["ytics"]["tics"]
                        if min(ymin, ymax) <= pos <= max(ymin, ymax))
            counts["tics"] += len(ys)
            for a, b in zip(ys, ys[1:]):
                if b - a < vchar / 1.5 * fs / font:
                    bad.append("%s: y tic labels %.1f pixels apart, a text is %.1f tall"
                               % (p["out"], b - a, vchar / 1.5 * fs / font))
    if want_titles is not None:
        counts["titles"], more = titles(pages, want_titles)
        bad += more
    print(json.dumps(counts))
    for b in bad[:20]:
        print(b)
    if len(bad) > 20:
        print("... and %d more" % (len(bad) - 20))
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1] == "wrap":
        sys.exit(wrap(sys.argv[2]))
    sys.exit(check(sys.argv[2], sys.argv[4] if sys.argv[3:4] == ["--titles"] else None))

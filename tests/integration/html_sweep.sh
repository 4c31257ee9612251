#!/bin/sh
# --html of a --sweep: the capacity section, drawn from the document's
# "sweep" member, tells what the text report tells.  Against the
# fixture's one worker of 5 ms (200 requests/s), a fixed sweep with
# p99<20ms: the page is well-formed (every element closed in order, the
# CSP, no script); its capacity line is the text's Capacity line; its
# steps' table is the text table, cell for cell; the plots against the
# offered rate have a point per step at the table's offered rate and
# value (requests/s, p99, errors %), the objective a horizontal rule at
# 20 ms on the reply time plot only, the capacity a vertical rule at the
# Capacity line's value on each of them, where the axis' ticks put it;
# each step its own percentile curve.  A client-limited step is a ring
# on each plot and its table row is set apart.  Without --sweep there
# is no capacity section.
. "$TESTLIB"

command -v python3 >/dev/null 2>&1 || skip "python3 is missing"

# check_page PAGE REPORT [JSON]: the page against the text report
# (above) and the --json document's steps: the objective
# first-byte.p99<10s has a series of its own on the reply time plot, at
# each step's stats.slo measure.  (Not connect.p99: a step in which the
# pool opened no connection has no connect time, and an objective
# measured on nothing fails, which made the verdicts chance.)
check_page() {
	python3 - "$@" <<'PY'
import html, json, re, sys
from html.parser import HTMLParser

page = open(sys.argv[1], encoding="utf-8").read()
text = open(sys.argv[2]).read().split("\n")
bad = []
VOID = {"meta", "br", "img", "input", "link", "hr", "col", "area",
    "base", "wbr", "source", "track", "embed", "param"}
SVGVOID = {"line", "circle", "polyline", "path", "rect"}

class P(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.fig, self.figs = [], None, {}
        self.texts, self.cur, self.rows, self.row = [], None, [], None
        self.incap, self.cap = False, ""
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag not in VOID:
            self.stack.append(tag)
        if tag == "script":
            bad.append("a script")
        if tag == "figure":
            self.fig = a.get("id")
            self.figs[self.fig] = {"series": {}, "rules": [], "ticks": []}
        f = self.figs.get(self.fig)
        if tag in ("polyline", "g") and a.get("class") in ("series",
            "marks"):
            self.cur = (a["data-series"], a["class"])
            f["series"][self.cur] = {"n": int(a["data-points"]),
                "pts": [], "poly": a.get("points", "").split()}
        if tag == "circle" and self.cur:
            self.texts = []
        if tag == "line" and a.get("class") == "rule":
            f["rules"].append((a["data-rule"], float(a["data-at"]),
                float(a["x1"]), float(a["y1"]), float(a["x2"]),
                float(a["y2"])))
        if tag == "text" and a.get("class") == "tick" and f is not None:
            f["ticks"].append([a, ""])
        if tag == "tr" and self.stack.count("table") and \
            "steps" in self.tables:
            self.row = {"cells": [], "class": a.get("class")}
        if tag == "p" and a.get("id") == "capacity":
            self.incap = True
    tables = []
    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)
    def handle_data(self, d):
        self.texts.append(d)
        if self.incap:
            self.cap += d
        if self.row is not None and self.stack[-1] == "td":
            self.row["cells"][-1] += d
        f = self.figs.get(self.fig)
        if f and f["ticks"] and self.stack[-1] == "text" and \
            f["ticks"][-1][1] == "" and not self.cur:
            f["ticks"][-1][1] = d
    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            bad.append("</%s> closes <%s>" % (tag, self.stack[-1:]))
            return
        self.stack.pop()
        if tag == "title" and self.cur and self.stack[-1] == "circle":
            t = "".join(self.texts)
            m = re.search(r": ([0-9.]+) .* at ([0-9.]+) offered", t)
            if m is None:
                return
            self.figs[self.fig]["series"][self.cur]["pts"].append(
                (float(m.group(2)), float(m.group(1))))
        if tag == "figure":
            self.fig = self.cur = None
        if tag == "p":
            self.incap = False
        if tag == "tr" and self.row is not None:
            if self.row["cells"]:
                self.rows.append(self.row)
            self.row = None

# <td> cells of the steps' table.
class T(P):
    def handle_starttag(self, tag, attrs):
        if tag == "table" and dict(attrs).get("id") == "steps":
            self.tables = ["steps"]
        super().handle_starttag(tag, attrs)
        if tag == "td" and self.row is not None:
            self.row["cells"].append("")
    def handle_endtag(self, tag):
        super().handle_endtag(tag)
        if tag == "table":
            self.tables = []

if not page.startswith("<!DOCTYPE html>\n") or \
    not page.endswith("</html>\n"):
    bad.append("not a whole page")
if "content=\"default-src 'none'; style-src 'unsafe-inline'; " \
    "img-src data:\"" not in page:
    bad.append("no CSP")
p = T()
p.feed(page)
p.close()
if p.stack:
    bad.append("unclosed: %s" % p.stack)

# The text report: its table and its capacity line.
i = [k for k, l in enumerate(text) if l.startswith("Sweep ")][0]
rows = [l.split() for l in text[i + 2:] if re.match(r"^ +[0-9]+ ", l)]
capline = [l for l in text if l.startswith("Capacity: ")][0]
m = re.match(r"Capacity: ([0-9.]+) ", capline)
cap = float(m.group(1)) if m else None

got = [r["cells"] for r in p.rows]
if got != rows:
    bad.append("table: page %s, text %s" % (got, rows))
if re.sub(r"\s+", " ", p.cap) != capline:
    bad.append("capacity: page %r, text %r" % (p.cap, capline))
client = [r[0] for r in rows if r[-1] == "CLIENT"]
if [r["cells"][0] for r in p.rows if r["class"] == "client"] != client:
    bad.append("client rows set apart: %s, wanted %s" %
        ([r["cells"][0] for r in p.rows if r["class"] == "client"], client))

def near(a, b, tol):
    return abs(a - b) <= tol

def points(fig, name, kind="series"):
    s = p.figs.get(fig, {"series": {}})["series"].get((name, kind))
    if s is None:
        bad.append("%s: no %s %s" % (fig, kind, name))
        return []
    if kind == "series" and len(s["poly"]) != s["n"]:
        bad.append("%s %s: %d points drawn, data-points %d" %
            (fig, name, len(s["poly"]), s["n"]))
    if len(s["pts"]) != s["n"]:
        bad.append("%s %s: %d dots, data-points %d" %
            (fig, name, len(s["pts"]), s["n"]))
    return s["pts"]

# Each plot against the offered rate: a point per step (by level), at
# the table's offered rate and value.
level = lambda r: float(r[2])
byl = sorted(rows, key=lambda r: (level(r), int(r[0])))
for fig, name, col, tol in (("plot-sw-rate", "requests/s", 4, 0.051),
    ("plot-sw-latency", "p99 (corrected)", 9, 0.051),
    ("plot-sw-errors", "errors %", 11, 0.0051)):
    if fig not in p.figs:
        bad.append("no plot %s" % fig)
        continue
    pts = points(fig, name)
    want = [(level(r), float(r[col])) for r in byl if r[col] != "n/a"]
    if len(pts) != len(want) or not all(near(a[0], b[0], 0.051) and
        near(a[1], b[1], tol) for a, b in zip(pts, want)):
        bad.append("%s %s: page %s, text %s" % (fig, name, pts, want))
    ring = points(fig, "client-limited (CLIENT)", "marks") if client \
        else []
    if client and sorted(x for x, y in ring) != \
        sorted(level(r) for r in rows if r[-1] == "CLIENT"):
        bad.append("%s: rings %s, CLIENT steps %s" % (fig, ring, client))
    if not client and ("client-limited (CLIENT)", "marks") in \
        p.figs[fig]["series"]:
        bad.append("%s: rings without a CLIENT step" % fig)
    # The rules: the capacity's (vertical, where the ticks put it);
    # p99<20ms on the reply time plot only (horizontal, at 20).
    r = p.figs[fig]["rules"]
    caps = [x for x in r if x[0] == "capacity"]
    if cap is None and caps or cap is not None and (len(caps) != 1 or
        "%.1f" % caps[0][1] != "%.1f" % cap or caps[0][2] != caps[0][4]):
        bad.append("%s: capacity rules %s, Capacity %s" % (fig, caps, cap))
    if caps:
        t = [(float(a["x"]), float(v)) for a, v in p.figs[fig]["ticks"]
            if a.get("text-anchor") == "middle"]
        (x0, v0), (x1, v1) = t[0], t[-1]
        x = x0 + (caps[0][1] - v0) * (x1 - x0) / (v1 - v0)
        if not near(x, caps[0][2], 0.15):
            bad.append("%s: capacity rule at x %.1f, the ticks put %s "
                "at %.1f" % (fig, caps[0][2], caps[0][1], x))
    objs = sorted((x[1], x[3] == x[5]) for x in r if x[0] == "objective")
    if objs != (sorted([(20.0, True)] + ([(10000.0, True)] if
        len(sys.argv) > 3 else [])) if fig == "plot-sw-latency" else []):
        bad.append("%s: objective rules %s" % (fig, objs))

# The objectives' measures, each step's in the document (those not
# measured left out): p99 of the reply time (the table's is corrected)
# and first-byte.p99, each a series of its own.
if len(sys.argv) > 3:
    steps = json.load(open(sys.argv[3]))["sweep"]["steps"]
    for obj, name in (("p99<20ms", "p99"),
        ("first-byte.p99<10s", "first-byte.p99")):
        want = sorted((s["level"], s["index"], v["value"]) for s in steps
            for v in s["result"]["stats"]["slo"]
            if v["objective"] == obj and v["value"] is not None)
        pts = points("plot-sw-latency", name)
        if not want or len(pts) != len(want) or not all(
            near(a[0], b[0], 0.051) and near(a[1], b[2], 0.051)
            for a, b in zip(pts, want)):
            bad.append("%s: page %s, document %s" % (name, pts, want))

# Each step's percentile curve, named after its row.
names = sorted(n for n, k in p.figs.get("plot-sw-pct",
    {"series": {}})["series"])
want = sorted("step %s: %s req/s %s" % (r[0], r[2], r[-1]) for r in rows)
if names != want:
    bad.append("plot-sw-pct: %s, wanted %s" % (names, want))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
}

start_srv -W 5

# A fixed sweep over the capacity, then the search between 200 and 300.
hp --uri /size/10 --call-rate 100 --sweep 100:300:100 --step-time 1 \
    --sweep-precision 10 --slo 'p99<20ms' --slo 'first-byte.p99<10s' \
    --max-lateness 200 --json "$T_DIR/sw.json" --html "$T_DIR/sw.html"
# Exit 4 when even the first level failed (a loaded machine), else 0.
if grep -q '^Capacity: - req/s (first-fail: ' "$OUT"; then
	expect_rc 4
else
	expect_rc 0
fi
validate_json "$T_DIR/sw.json"
# Found on a quiet machine (200 req/s, or 212.5: the search's last
# pass); a loaded one may fail the first level, which the page must
# tell as well (no capacity rule then).
grep -Eq '^Capacity: ([0-9.]+ req/s \(found: p99<20ms, first-byte.p99<10s;|- req/s \(first-fail: )' \
    "$OUT" || fail "capacity: $(grep Capacity "$OUT")"
grep '^Capacity:' "$OUT"
check_page "$T_DIR/sw.html" "$OUT" "$T_DIR/sw.json" > "$T_DIR/chk" 2>&1 ||
    fail "the page: $(cat "$T_DIR/chk")"
grep -q '<h2 id="capacity-section">Capacity <span class="dim">(--sweep 100:300:100: [0-9]* steps of 1.000 s)</span></h2>' \
    "$T_DIR/sw.html" || fail "no capacity section heading"
ok "--sweep --html: the capacity section tells the text report's steps and capacity"

# The first step client-limited (no arrival is on time to the us): a
# ring on each plot, its row set apart, the capacity line "client".
hp --uri /size/10 --call-rate 100 --sweep 100:300:100 --step-time 1 \
    --slo 'p99<20ms' --max-lateness 0.001 --html "$T_DIR/cl.html"
expect_rc 3
grep -qx 'Capacity: - req/s (client: the client was the bottleneck at 100.0)' \
    "$OUT" || fail "capacity: $(grep Capacity "$OUT")"
check_page "$T_DIR/cl.html" "$OUT" > "$T_DIR/chk" 2>&1 ||
    fail "the client-limited page: $(cat "$T_DIR/chk")"
ok "--sweep --html: a client-limited step is a ring and its row is set apart"

# No sweep, no capacity section.
hp --uri /size/10 --call-rate 100 --num-calls 20 --html "$T_DIR/run.html"
expect_rc 0
[ -s "$T_DIR/run.html" ] || fail "no page"
if grep -q 'capacity\|plot-sw-' "$T_DIR/run.html"; then
	fail "a capacity section without --sweep"
fi
ok "--html without --sweep: no capacity section"
stop_srv

#!/bin/sh
# --html: the page of a paced fixture run (--call-rate, replies of mixed
# delays) and of a --merge of two --client I/2 runs holds every plot and
# exactly the series the result document calls for; headless Chromium
# loads it (and a --sweep's page) with no console message (a CSP violation is one), requests
# nothing but the file itself, has every series and the 50% tick of
# every percentile axis in its DOM, and takes 1280x800 screenshots; it
# prints it to PDF (poppler-utils checks every heading is in it and no
# plot is cut by a page break).  The screenshots, the PDFs and their
# first pages as PNG are kept for a person to look at in
# tests/integration/html.out/ (HTML_OUT), named in the log.
. "$TESTLIB"

command -v python3 >/dev/null 2>&1 || skip "python3 is missing"
strict=0
t_strict && strict=1
CHROMIUM=""
for c in chromium chromium-browser; do
	if command -v "$c" >/dev/null 2>&1; then
		CHROMIUM=$c
		break
	fi
done
if [ -z "$CHROMIUM" ] && [ $strict = 1 ]; then
	fail "chromium is missing (Debian: chromium)"
fi
POPPLER=1
for c in pdfinfo pdftotext pdftoppm; do
	if ! command -v $c >/dev/null 2>&1; then
		[ $strict = 1 ] && fail "$c is missing (Debian: poppler-utils)"
		POPPLER=""
	fi
done

HOUT=${HTML_OUT:-$(pwd)/tests/integration/html.out}
rm -rf "$HOUT"
mkdir -p "$HOUT" || fail "cannot make $HOUT"

# A URI list of delays of 1, 3, 8 and 30 ms, so the latencies vary.
W=$T_DIR/wlog
for u in 1 3 1 8 1 3 1 1 30 3 1 8 1 3 1 1 3 8 1 3; do
	printf '/delay/%s/%s\0' "$u" $((u * 40)) >> "$W"
done

# series FILE.html: "figure-id series-name points", one a line, sorted.
series() {
	python3 - "$1" <<'PY'
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    fig = None
    out = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "figure" and a.get("class") == "plot":
            self.fig = a.get("id", "?")
        if tag == "polyline" and a.get("class") == "series":
            n = int(a["data-points"])
            pts = a.get("points", "").split()
            if len(pts) != n:
                print("BAD %s %s: %d points, data-points %d" %
                    (self.fig, a["data-series"], len(pts), n))
            self.out.append("%s|%s|%d" % (self.fig, a["data-series"], n))
    def handle_endtag(self, tag):
        if tag == "figure":
            self.fig = None
p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
for l in sorted(p.out):
    print(l)
PY
}

# want DOC.json [CLIENT.json LABEL]...: the series the page of DOC must
# show, worked out from the documents as the design says, as series
# prints them.
want() {
	python3 - "$@" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
cl = [(json.load(open(sys.argv[i])), sys.argv[i + 1])
    for i in range(2, len(sys.argv), 2)]
merged = len(cl) > 0
out = []
def hcount(d, path):
    v = d
    for k in path.split("."):
        v = v.get(k) if isinstance(v, dict) else None
    return v.get("count", 0) if isinstance(v, dict) else 0
def pct(fig, d, path, name):
    c = hcount(d, path)
    if c > 0:
        out.append("plot-%s|%s|%d" % (fig, name, 100 if c > 1 else 1))
H = "stats.basic.histograms."
for d, l in cl:
    pct("pct-reply", d, H + "reply", l)
pct("pct-reply", doc, H + "reply", "Total" if merged else "Reply time")
pct("pct-reply", doc, H + "reply_corrected",
    "Total (corrected)" if merged else "Reply time (corrected)")
T = "Total " if merged else ""
PH = (("connection", "Connection"), ("connect", "Connect"),
    ("tls_handshake", "TLS handshake"), ("first_byte", "First byte"),
    ("transfer", "Transfer"), ("session", "Session lifetime"))
for d, l in cl:
    for k, n in PH:
        pct("pct-phases", d, H + k, l + " " + n)
for k, n in PH:
    pct("pct-phases", doc, H + k, T + n)
for d, l in cl:
    pct("pct-lateness", d, "stats.sched.lateness", l)
pct("pct-lateness", doc, "stats.sched.lateness",
    "Total" if merged else "Lateness")
def ivs(d):
    return [i for i in d["stats"]["interval"]["intervals"]
        if i["length_ns"] > 0]
iv = ivs(doc)
target = doc["stats"]["interval"]["target_rate_per_s"]
def add(fig, name, n):
    if n > 0:
        out.append("plot-%s|%s|%d" % (fig, name, n))
for d, l in cl:
    add("iv-rate", l, len(ivs(d)))
    add("iv-latency", l + " p99", sum(1 for i in ivs(d)
        if i["reply"]["count"] > 0))
add("iv-rate", "Total achieved" if merged else "Achieved", len(iv))
if target > 0:
    add("iv-rate", "Arrivals", len(iv))
    add("iv-rate", "Target", 2)
SC = ("1xx", "2xx", "3xx", "4xx", "5xx")
EC = ("client-timo", "socket-timo", "connrefused", "connreset",
    "fd-unavail", "addrunavail", "ftab-full", "other")
# Each client's classes that happened to it, then the total's.
for d, l in cl + [(doc, None)]:
    v = ivs(d)
    for fig, obj, names in (("iv-status", "replies", SC),
        ("iv-errors", "errors", EC)):
        for c in names:
            if any(i[obj][c] > 0 for i in v):
                add(fig, T + c if l is None else l + " " + c, len(v))
t = "Total " if merged else ""
nr = sum(1 for i in iv if i["reply"]["count"] > 0)
add("iv-latency", t + "p99", nr)
add("iv-latency", t + "p50", nr)
if target > 0:
    add("iv-latency", t + "p99 (corrected)",
        sum(1 for i in iv if i["reply_corrected"]["count"] > 0))
for l in sorted(out):
    print(l)
PY
}

# check_page NAME DOC.json [CLIENT.json LABEL]...: $HOUT/NAME.html is a
# whole page of exactly the series wanted, with the plots and the CSP.
check_page() {
	p=$HOUT/$1.html
	shift
	[ -s "$p" ] || fail "$p: missing or empty"
	head -n 1 "$p" | grep -qx '<!DOCTYPE html>' || fail "$p: no doctype"
	tail -n 1 "$p" | grep -qx '</html>' || fail "$p: not whole"
	grep -q "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">" "$p" ||
	    fail "$p: no CSP"
	if grep -qi '<script' "$p"; then
		fail "$p: has a script"
	fi
	if grep -Eqi '(src|href)="?(https?:|//)' "$p"; then
		fail "$p: refers to a URL"
	fi
	for id in pct-reply pct-phases iv-rate iv-status iv-errors iv-latency \
	    pct-lateness; do
		grep -q "<figure class=\"plot\" id=\"plot-$id\">" "$p" ||
		    fail "$p: no plot $id"
	done
	series "$p" > "$T_DIR/got" || fail "$p: cannot parse"
	want "$@" > "$T_DIR/want" || fail "$p: cannot read $*"
	grep -q . "$T_DIR/want" || fail "$p: no series wanted?"
	cmp -s "$T_DIR/want" "$T_DIR/got" ||
	    fail "$p: series differ (- wanted, + on the page): $(diff "$T_DIR/want" "$T_DIR/got")"
	# The command line, unescaped from the page, is the document's; of
	# a merge, the heading says so and each client's command line can
	# be read off the page: the shared words with each client's own
	# where they differ.
	python3 - "$p" "$@" 2> "$T_DIR/cmd.err" <<'PY' ||
import json, sys, re, html
page = open(sys.argv[1], encoding="utf-8").read()
cl = [(json.load(open(sys.argv[i])), sys.argv[i + 1])
    for i in range(3, len(sys.argv), 2)]
if not cl:
    m = re.search(r'<pre class="cmd">(.*?)</pre>', page, re.S)
    want = json.load(open(sys.argv[2]))["command_line"]
    if m is None or html.unescape(m.group(1)) != want:
        sys.exit("on the page: %r, in the document: %r" %
            (m and m.group(1), want))
    sys.exit(0)
if "<h1>httperf report: a merge of %d results</h1>" % len(cl) not in page:
    sys.exit("no heading of a merge of %d" % len(cl))
m = re.search(r'<pre class="cmd" id="cmd-common">(.*?)</pre>', page, re.S)
if m is None:
    sys.exit("no common command line")
common = m.group(1).split(" ")
for d, label in cl:
    r = re.search(r'<tr><th scope="row">%s</th><td class="cmd">(.*?)</td>'
        % re.escape(html.escape(label, quote=True).replace("&#x27;",
        "&#39;")), page, re.S)
    if r is None:
        sys.exit("no row of %s" % label)
    own = iter(re.findall(r'<mark>(.*?)</mark>', r.group(1)))
    got = " ".join(re.sub(r'<mark>&#8230;</mark>', lambda x: next(own), w)
        for w in common)
    if html.unescape(got) != d["command_line"]:
        sys.exit("%s: the page tells %r, it ran %r" %
            (label, html.unescape(got), d["command_line"]))
PY
	    fail "$p: command line: $(cat "$T_DIR/cmd.err")"
}

# chrome NAME ARGS...: headless Chromium on $HOUT/NAME.html, bounded;
# every request it would make goes to a closed loopback port (its own
# background requests included), so nothing leaves the machine.  Its
# log goes to $T_DIR/NAME.clog, its net log to $T_DIR/NAME.net.
chrome() {
	n=$1
	shift
	rm -rf "$T_DIR/chrome"
	timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
	    --user-data-dir="$T_DIR/chrome" --no-first-run \
	    --disable-extensions --disable-background-networking \
	    --disable-component-update --disable-sync --disable-default-apps \
	    --disable-client-side-phishing-detection --no-pings \
	    --disable-domain-reliability --proxy-server=http://127.0.0.1:9 \
	    --hide-scrollbars --enable-logging=stderr --v=0 \
	    --log-net-log="$T_DIR/$n.net" "$@" "file://$HOUT/$n.html" \
	    2> "$T_DIR/$n.clog"
}

# browse NAME: loads the page in Chromium: no console message at all, no
# request but the file, the DOM's series those of the file, a 1280x800
# screenshot in $HOUT/NAME.png.
browse() {
	n=$1
	p=$HOUT/$n.html
	chrome "$n" --window-size=1280,800 --dump-dom > "$T_DIR/$n.dom" ||
	    fail "$p: chromium --dump-dom failed: $(tail -n 5 "$T_DIR/$n.clog")"
	cp "$T_DIR/$n.clog" "$T_DIR/$n.clog1"
	python3 - "$T_DIR/$n.net" "file://$p" > "$T_DIR/$n.urls" 2>&1 <<'PY' ||
import json, sys
d = json.load(open(sys.argv[1]))
types = {v: k for k, v in d["constants"]["logEventTypes"].items()}
bad = 0
for e in d["events"]:
    p = e.get("params") or {}
    if types.get(e["type"]) != "URL_REQUEST_START_JOB" or "url" not in p:
        continue
    # The browser's own background requests have no initiator ("not an
    # origin"); whatever the page asks for has its own (file: "null").
    page = (p.get("initiator") != "not an origin" or
        str(p.get("network_isolation_key", "")).startswith("file:"))
    print("%s %s" % ("page" if page else "browser", p["url"]))
    if page and p["url"] != sys.argv[2]:
        bad += 1
sys.exit(1 if bad else 0)
PY
	    fail "$p: the page requested something: $(grep '^page' "$T_DIR/$n.urls")"
	echo "requests while loading $n.html (the browser's own go to 127.0.0.1:9):"
	sed 's/^/  /' "$T_DIR/$n.urls"
	series "$p" > "$T_DIR/got"
	series "$T_DIR/$n.dom" > "$T_DIR/dom"
	grep -q . "$T_DIR/dom" || fail "$p: no series in the DOM"
	cmp -s "$T_DIR/got" "$T_DIR/dom" ||
	    fail "$p: the DOM's series differ from the file's: $(diff "$T_DIR/got" "$T_DIR/dom")"
	if awk -F'|' '$3 < 1 { exit 1 }' "$T_DIR/dom"; then :; else
		fail "$p: a series without points in the DOM"
	fi
	# Every percentile plot's axis: 50%, then a decade a tick.
	python3 - "$T_DIR/$n.dom" > "$T_DIR/ticks" 2>&1 <<'PY' ||
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    fig = None
    tick = False
    ticks = {}
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "figure" and a.get("class") == "plot":
            self.fig = a.get("id")
            self.ticks[self.fig] = []
        self.tick = tag == "text" and a.get("class") == "tick"
    def handle_data(self, data):
        if self.tick and self.fig:
            self.ticks[self.fig].append(data)
    def handle_endtag(self, tag):
        self.tick = False
        if tag == "figure":
            self.fig = None
p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
bad = 0
for fig in ("plot-pct-reply", "plot-pct-phases", "plot-pct-lateness"):
    t = p.ticks.get(fig, [])
    x = [v for v in t if v.endswith("%")]
    print("%s: %s" % (fig, " ".join(x)))
    if x[:5] != ["0%", "50%", "90%", "99%", "99.9%"]:
        bad = 1
sys.exit(bad)
PY
	    fail "$p: percentile axes in the DOM: $(cat "$T_DIR/ticks")"
	sed 's/^/  /' "$T_DIR/ticks"
	rm -f "$HOUT/$n.png"
	chrome "$n" --window-size=1280,800 --screenshot="$HOUT/$n.png" \
	    > /dev/null || fail "$p: chromium --screenshot failed: $(tail -n 5 "$T_DIR/$n.clog")"
	cat "$T_DIR/$n.clog" >> "$T_DIR/$n.clog1"
	if grep -E ':CONSOLE[:(]|Content Security Policy' "$T_DIR/$n.clog1"; then
		fail "$p: console messages while loading it (above)"
	fi
	python3 - "$HOUT/$n.png" <<'PY' || fail "$HOUT/$n.png: not a 1280x800 PNG"
import struct, sys
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n" and b[12:16] == b"IHDR", "not a PNG"
w, h = struct.unpack(">II", b[16:24])
print("%s: %dx%d, %d bytes" % (sys.argv[1], w, h, len(b)))
assert (w, h) == (1280, 800), "%dx%d" % (w, h)
assert len(b) > 20000, "too small to show anything"
PY
	# The whole page, for a person (and the README's picture).
	chrome "$n" --window-size=1280,2500 \
	    --screenshot="$HOUT/$n-full.png" > /dev/null ||
	    fail "$p: chromium (full page) failed"
	echo "screenshots: $HOUT/$n.png $HOUT/$n-full.png"
}

# printed NAME HEADING...: prints $HOUT/NAME.html to $HOUT/NAME.pdf with
# Chromium as a person would (its print stylesheet): a PDF of 2 to 9
# pages holding every HEADING; every plot whole on one page (its caption
# and its axis' label on the same page, in that order); page 1 as
# $HOUT/NAME-print.png, for a person to look at.
printed() {
	n=$1
	shift
	p=$HOUT/$n.html
	rm -f "$HOUT/$n.pdf" "$HOUT/$n-print.png"
	chrome "$n" --no-pdf-header-footer --print-to-pdf="$HOUT/$n.pdf" \
	    > /dev/null || fail "$p: chromium --print-to-pdf failed: $(tail -n 5 "$T_DIR/$n.clog")"
	pdfinfo "$HOUT/$n.pdf" > "$T_DIR/$n.info" 2>&1 ||
	    fail "$HOUT/$n.pdf: not a PDF: $(cat "$T_DIR/$n.info")"
	pages=$(awk '$1 == "Pages:" { print $2 }' "$T_DIR/$n.info")
	[ -n "$pages" ] && [ "$pages" -ge 2 ] && [ "$pages" -le 9 ] ||
	    fail "$HOUT/$n.pdf: ${pages:-no} pages"
	i=1
	while [ $i -le "$pages" ]; do
		pdftotext -layout -f $i -l $i "$HOUT/$n.pdf" "$T_DIR/$n.page$i" ||
		    fail "$HOUT/$n.pdf: pdftotext failed on page $i"
		i=$((i + 1))
	done
	python3 - "$T_DIR/$n.page" "$pages" "$@" > "$T_DIR/$n.pchk" 2>&1 <<'PY' ||
import sys
pages = [open("%s%d" % (sys.argv[1], i), encoding="utf-8").read().split("\n")
    for i in range(1, int(sys.argv[2]) + 1)]
bad = []
text = [l.strip() for pg in pages for l in pg]
for h in sys.argv[3:]:
    if not any(l.startswith(h) for l in text):
        bad.append("no heading %r" % h)
figs = {"Reply time by percentile": "percentile",
    "Phases by percentile": "percentile",
    "Rate": "time since start [s]",
    "Replies by status class": "time since start [s]",
    "Errors by class": "time since start [s]",
    "Reply time p50 / p99 per interval": "time since start [s]",
    "Lateness by percentile": "percentile"}
labels = set(figs.values())
for cap, axis in figs.items():
    at = [(i, j) for i, pg in enumerate(pages) for j, l in enumerate(pg)
        if l.strip() == cap]
    if len(at) != 1:
        bad.append("plot %r: %d captions" % (cap, len(at)))
        continue
    i, j = at[0]
    nxt = [l.strip() for l in pages[i][j + 1:]
        if l.strip() in labels or l.strip() in figs]
    if not nxt or nxt[0] != axis:
        bad.append("plot %r on page %d: cut (%s after it on the page)" %
            (cap, i + 1, nxt[:1] or "nothing"))
    else:
        print("%s: page %d" % (cap, i + 1))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
	    fail "$HOUT/$n.pdf: $(cat "$T_DIR/$n.pchk")"
	pdftoppm -png -r 70 -f 1 -l 1 -singlefile "$HOUT/$n.pdf" \
	    "$HOUT/$n-print" || fail "$HOUT/$n.pdf: pdftoppm failed"
	[ -s "$HOUT/$n-print.png" ] || fail "$HOUT/$n-print.png: missing"
	echo "printed: $HOUT/$n.pdf, $pages pages; page 1: $HOUT/$n-print.png"
	sed 's/^/  /' "$T_DIR/$n.pchk"
}

start_srv

# 1. A paced run: corrected reply times and lateness exist.
hp --call-rate 200 --num-calls 600 --wlog "y,$W" --json "$T_DIR/run.json" \
    --html "$HOUT/run.html"
expect_rc 0
expect_counts '[0-9]+' 600 600
[ "$(json_get "$T_DIR/run.json" stats.basic.histograms.reply_corrected.count)" = 600 ] ||
    fail "no corrected reply times"
check_page run "$T_DIR/run.json"
ok "--html of a run: every plot and series the document calls for"

# 2. Two clients merged: a series per client plus the totals.  They
# share a list of 600 URIs (--wlog n,: client 0 sends the first 300,
# client 1 the others), of which client 1's hold 15 /status/503 and 15
# /reset: the status and the error classes have lines of client 1 only.
W2=$T_DIR/wlog2
k=0
while [ $k -lt 600 ]; do
	case $k:$((k % 20)) in
	[3-5]??:7) printf '/status/503\0' ;;
	[3-5]??:13) printf '/reset\0' ;;
	*) tr '\0' '\n' < "$W" | sed -n "$((k % 20 + 1))p" | tr '\n' '\0' ;;
	esac
	k=$((k + 1))
done > "$W2"
[ "$(tr -cd '\0' < "$W2" | wc -c)" = 600 ] || fail "wlog2: not 600 URIs"
for i in 0 1; do
	timeout 60 "$HP" --server 127.0.0.1 --port "$PORT" --call-rate 100 \
	    --num-calls 300 --wlog "n,$W2" --client $i/2 \
	    --json "$T_DIR/c$i.json" > "$T_DIR/c$i.txt" 2>&1 &
	eval "p$i=\$!"
done
for i in 0 1; do
	eval "wait \$p$i" || fail "client $i/2 failed: $(cat "$T_DIR/c$i.txt")"
done
T_LAST="httperf --merge c0.json c1.json --html merged.html"
timeout 60 "$HP" --merge "$T_DIR/c0.json" "$T_DIR/c1.json" \
    --json "$T_DIR/m.json" --html "$HOUT/merged.html" > "$OUT" 2> "$OUT.err"
RC=$?
expect_rc 0
expect_counts '[0-9]+' 600 '[0-9]+'
[ "$(json_get "$T_DIR/c1.json" stats.basic.errors.connreset)" -gt 0 ] &&
    [ "$(json_get "$T_DIR/c1.json" stats.basic.replies.status.5xx)" -gt 0 ] ||
    fail "client 1 got no resets or no 503s"
host=$(json_get "$T_DIR/c0.json" host)
check_page merged "$T_DIR/m.json" "$T_DIR/c0.json" "client 0 ($host)" \
    "$T_DIR/c1.json" "client 1 ($host)"
series "$HOUT/merged.html" > "$T_DIR/ms"
for want in "plot-iv-status|client 0 ($host) 2xx" \
    "plot-iv-status|client 1 ($host) 2xx" \
    "plot-iv-status|client 1 ($host) 5xx" "plot-iv-status|Total 5xx" \
    "plot-iv-errors|client 1 ($host) connreset" \
    "plot-iv-errors|Total connreset" "plot-pct-phases|client 0 ($host) Connect" \
    "plot-pct-phases|client 1 ($host) Connect" "plot-pct-phases|Total Connect"; do
	grep -qF "$want|" "$T_DIR/ms" || fail "merged.html: no series $want"
done
if grep -qF "plot-iv-errors|client 0" "$T_DIR/ms"; then
	fail "merged.html: client 0 had no errors, yet a series"
fi
ok "--merge --html: per-client series and the totals on every plot"
ok "--merge --html: the heading names the merge and each client's command line"

# A sweep's page, for the browser below (its content: html_sweep.sh).
hp --uri /size/10 --call-rate 50 --sweep 50:100:50 --step-time 1 \
    --slo 'p99<1s' --max-lateness 200 --html "$HOUT/sweep.html"
expect_rc 0
grep -q '<h2 id="capacity-section">' "$HOUT/sweep.html" ||
    fail "sweep.html: no capacity section"
stop_srv

# 3. In the browser.
if [ -z "$CHROMIUM" ]; then
	t_skip "chromium is missing: the pages were not loaded in a browser"
else
	browse run
	browse merged
	browse sweep
	ok "Chromium: no console message, no request, every series in the DOM, screenshots"
	if [ -z "$POPPLER" ]; then
		t_skip "poppler-utils is missing: the printed pages were not checked"
	else
		H="Totals|Percentiles|Latency distribution|Over time|Lateness"
		IFS='|'
		# shellcheck disable=SC2086
		printed run "httperf report" $H
		# shellcheck disable=SC2086
		printed merged "httperf report: a merge of 2 results" \
		    "The command line of the 2 clients" $H
		# shellcheck disable=SC2086
		printed sweep "httperf report" "Capacity" $H
		unset IFS
		ok "printed to PDF: every heading, no plot cut by a page break"
	fi
fi

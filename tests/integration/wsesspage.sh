#!/bin/sh
# --wsesspage against nginx serving the site of tests/site: every view
# fetches its page and exactly the same-origin objects the page embeds
# (each once per view, whatever the tag or the form of its URL), never
# what comments, scripts or titles hide, nor the cross-origin ones; the
# next page is the page's link; a 301 is followed.  nginx's access log
# holds exactly those URIs, as many times as the views ask.  With
# --servers, an object on another of its servers is fetched from that
# server, with its Host line.
. "$TESTLIB"

nginx_need

free_ports 3
set -- $PORTS
P=$1 P2=$2 P3=$3
N=$T_DIR/nginx
mkdir -p "$N"
cp -R "$(dirname "$TESTLIB")/../site" "$N/html" || fail "no tests/site"
sed "s/@PORT@/$P/g" "$N/html/index.html" > "$N/index.tmp" &&
    mv "$N/index.tmp" "$N/html/index.html"
nginx_start "$N" '$request_uri $status' \
    --server 127.0.0.1 --port "$P" --uri /1k.html <<CONF
	types { text/html html; text/css css; image/png png; }
	default_type application/octet-stream;
	absolute_redirect off;
	log_format host '\$http_host \$request_uri \$status';
	server {
		listen 127.0.0.1:$P3;
		root $N/html;
		access_log $N/logs/p3.log host;
	}
	server {
		listen 127.0.0.1:$P;
		listen 127.0.0.1:$P2 http2;
		root $N/html;
		location = /redir { return 301 /sub/page3.html; }
		location = /loop { return 302 /loop; }
		location = /upper {
			types { }
			default_type "Text/HTML; Charset=UTF-8";
			try_files /page2.html =404;
		}
		location = /missing { return 404 "<img src=/x.png>"; }
	}
CONF
PORT=$P

# The four views of a session: the index, page 2, the redirect to page
# 3 (its <base href> moves its relative URLs), the index again.
INDEX='/index.html 200
/css/site.css 200
/favicon.ico 200
/js/app.js 200
/img/bg.png 200
/img/a.png 200
/img/b.png 200
/img/c.png?x=1&y=2 200
/img/abs.png 200
/img/sr.png 200
/frame.html 200
/img/p.png 200
/media/m.mp4 200
/media/o.svg 200
/media/e.swf 200'
PAGE2='/page2.html 200
/img/a.png 200
/frame.html 200'
PAGE3='/redir 301
/sub/page3.html 200
/js/app.js 200
/img/d.png 200'

# One session: the pages in the order of the views, each page before
# its objects, the objects of a view before the next page.
: > "$ALOG"
hp --uri /index.html --wsesspage 1,4,0
expect_rc 0
expect_counts 6 37 37
expect_status 0 36 1 0 0
n=$(nginx_logged 37)
[ "$n" = 37 ] || fail "nginx logged $n requests, expected 37"
grep -E '\.html|redir' "$ALOG" | grep -v frame > "$T_DIR/pages"
printf '/index.html 200\n/page2.html 200\n/redir 301\n/sub/page3.html 200\n/index.html 200\n' \
    > "$T_DIR/pages.want"
cmp -s "$T_DIR/pages" "$T_DIR/pages.want" || \
    fail "pages: $(tr '\n' ' ' < "$T_DIR/pages")"
printf '%s\n%s\n%s\n%s\n' "$INDEX" "$PAGE2" "$PAGE3" "$INDEX" | sort \
    > "$T_DIR/one.want"
sort "$ALOG" > "$T_DIR/one"
cmp -s "$T_DIR/one" "$T_DIR/one.want" || \
    fail "one session: $(diff "$T_DIR/one.want" "$T_DIR/one" | head -8 |
    tr '\n' ' ')"
awk '{ print $1 }' "$ALOG" | grep -q '^/no/' && fail "a hidden URL fetched"
# Each view's objects come before the next page is asked for.
awk '/^\/(index|page2)\.html|^\/redir/ { v++ } { print v, $1 }' "$ALOG" |
    awk '$1 == 1 && $2 == "/img/d.png" { bad = 1 } END { exit bad }' ||
    fail "an object of a later view in the first"
ok "1 session of 4 views: the 37 URIs of the views, in view order"

# The report: after the session lines, the view times and the figures:
# 32 objects in 4 views, the index's 2 cross-origin images skipped in
# each of its 2 views, the one redirect.
expect '^Session length histogram: '
expect '^Page view time percentiles \[ms\]: p50 [0-9.]+ p90 [0-9.]+ p99 [0-9.]+ p99\.9 [0-9.]+ p99\.99 [0-9.]+ max [0-9.]+$'
expect '^Page views: 4 objects/view 8\.00 bytes/view [0-9.]+ cross-origin 4 over-limit 0 redirects 1$'
tail -2 "$OUT" | head -1 | grep -q '^Page view time percentiles' ||
    fail "the page lines are not the last two: $(tail -3 "$OUT")"
ok "the page lines: 4 views, 8 objects a view, 4 cross-origin, 1 redirect"

# Three sessions of two views at once: every session its own views.
: > "$ALOG"
hp --uri /index.html --wsesspage 3,2,0 --rate 100
expect_rc 0
expect_counts 18 54 54
n=$(nginx_logged 54)
[ "$n" = 54 ] || fail "nginx logged $n requests, expected 54"
printf '%s\n%s\n%s\n%s\n%s\n%s\n' "$INDEX" "$PAGE2" "$INDEX" "$PAGE2" \
    "$INDEX" "$PAGE2" | sort > "$T_DIR/three.want"
sort "$ALOG" > "$T_DIR/three"
cmp -s "$T_DIR/three" "$T_DIR/three.want" || \
    fail "three sessions: $(diff "$T_DIR/three.want" "$T_DIR/three" |
    head -8 | tr '\n' ' ')"
ok "3 sessions of 2 views at once: 54 URIs, each view's own"

# --max-connections bounds the connections of a session.
: > "$ALOG"
hp --uri /index.html --wsesspage 1,1,0 --max-connections 2
expect_rc 0
expect_counts 2 15 15
ok "--max-connections 2: 2 connections for a view of 15"

# --json: the page part, valid; --merge of two clients adds it up.
for c in 0 1; do
	hp --uri /index.html --wsesspage 1,2,0 --client $c/2 \
	    --json "$T_DIR/m$c.json"
	expect_rc 0
	expect '^Page views: 2 objects/view 8\.00 '
	validate_json "$T_DIR/m$c.json"
done
[ "$(json_get "$T_DIR/m0.json" stats.page.objects)" = 16 ] ||
    fail "stats.page.objects is not 16"
[ "$(json_get "$T_DIR/m0.json" stats.page.cross_origin)" = 2 ] ||
    fail "stats.page.cross_origin is not 2"
[ "$(json_get "$T_DIR/m0.json" stats.page.view_time.count)" = 2 ] ||
    fail "stats.page.view_time.count is not 2"
"$HTTPERF" --merge --json "$T_DIR/merged.json" "$T_DIR/m0.json" \
    "$T_DIR/m1.json" > "$OUT" 2> "$OUT.err" ||
    fail "--merge failed: $(cat "$OUT.err")"
expect '^Page views: 4 objects/view 8\.00 bytes/view [0-9.]+ cross-origin 4 over-limit 0 redirects 0$'
validate_json "$T_DIR/merged.json"
[ "$(json_get "$T_DIR/merged.json" stats.page.view_time.count)" = 4 ] ||
    fail "merged stats.page.view_time.count is not 4"
ok "--json has the page part; --merge adds two clients' up"

# HTTP/2 (h2c) on the second port: one connection, each view's objects
# as concurrent streams (the index's 12 at once); the absolute URLs of
# the index name the first port, another origin now: 2 more skipped.
PORT=$P2
: > "$ALOG"
hp --http2 --uri /index.html --wsesspage 1,4,0
expect_rc 0
expect_counts 1 33 33
expect '^HTTP/2: connections 1 \(h2 0 h2c 1 http/1\.1 0\), streams 33, streams/conn 33\.0 max 33, max concurrent 12$'
expect '^Page views: 4 objects/view 7\.00 bytes/view [0-9.]+ cross-origin 8 over-limit 0 redirects 1$'
n=$(nginx_logged 33)
[ "$n" = 33 ] || fail "nginx logged $n requests, expected 33"
printf '%s\n%s\n%s\n%s\n' "$INDEX" "$PAGE2" "$PAGE3" "$INDEX" |
    grep -v -e abs.png -e sr.png | sort > "$T_DIR/h2.want"
sort "$ALOG" > "$T_DIR/h2"
cmp -s "$T_DIR/h2" "$T_DIR/h2.want" || \
    fail "HTTP/2: $(diff "$T_DIR/h2.want" "$T_DIR/h2" | head -8 |
    tr '\n' ' ')"
ok "HTTP/2: 33 URIs on one connection, 12 objects as concurrent streams"

# The next page: one of the hub's four same-origin links (never the
# other origin's), chosen from --seed and --client, the same every run.
PORT=$P
walk() {
	: > "$ALOG"
	hp --uri /hub/index.html --wsesspage 1,12,0 --seed "$1"
	expect_rc 0
	expect_counts 1 12 12
	n=$(nginx_logged 12)
	[ "$n" = 12 ] || fail "nginx logged $n requests, expected 12"
	awk '{ print $1 }' "$ALOG" | tr '\n' ' '
}
w7=$(walk 7)
w7b=$(walk 7)
w8=$(walk 8)
[ "$w7" = "$w7b" ] || fail "--seed 7 walked $w7, then $w7b"
[ "$w7" != "$w8" ] || fail "--seed 7 and 8 walked the same: $w7"
for w in "$w7" "$w8"; do
	echo "$w" | awk '{
		for (i = 1; i <= NF; i++)
			if ((i % 2 == 1) != ($i == "/hub/index.html") ||
			    $i !~ /^\/hub\/(index|a|b|c|d)\.html$/)
				exit 1
	}' || fail "not a walk from the hub and back: $w"
done
ok "--seed 7 walks the same pages twice ($w7), --seed 8 others"

# Redirects stop after 10 hops; Content-Type in any case with
# parameters is HTML; a stylesheet or a text 404 is not scanned.
: > "$ALOG"
hp --uri /loop --wsesspage 1,1,0
expect_rc 0
expect_counts 1 11 11
expect '^Page views: 1 objects/view 0\.00 bytes/view [0-9.]+ cross-origin 0 over-limit 0 redirects 10$'
n=$(nginx_logged 11)
[ "$(grep -c '^/loop 302$' "$ALOG")" = 11 ] || fail "not 11 hops of /loop"
for u in /upper /css/site.css /missing; do
	: > "$ALOG"
	hp --uri $u --wsesspage 1,1,0
	expect_rc 0
	nginx_logged 1 > /dev/null
	sort "$ALOG" | tr '\n' ' ' > "$T_DIR/got"
	case $u in
	/upper) want="/frame.html 200 /img/a.png 200 /upper 200 " ;;
	/css/site.css) want="/css/site.css 200 " ;;
	*) want="/missing 404 " ;;
	esac
	[ "$(cat "$T_DIR/got")" = "$want" ] ||
	    fail "$u: fetched $(cat "$T_DIR/got"), want $want"
done
ok "10 redirect hops at most; Text/HTML; Charset=UTF-8 scanned, CSS and text not"

# --jobs 2 runs two workers and splits the sessions between them: 5
# views, not 10.
: > "$ALOG"
hp --uri /index.html --wsesspage 5,1,0 --jobs 2
expect_rc 0
expect_counts 30 75 75
expect '^Page views: 5 objects/view 14\.00 '
expect '^Jobs: 2 workers, 2 finished$'
n=$(nginx_logged 75)
[ "$n" = 75 ] || fail "nginx logged $n requests, expected 75"
ok "--jobs 2: two workers, the 5 sessions split, 75 requests"

# --servers: a page on the first server embeds an object on the second
# (absolute URL), one on its own (relative) and one on a host the file
# does not list.  The first is fetched on a connection to the second
# server, with that server's Host line; the unlisted one is skipped.
cat > "$N/html/two.html" <<EOF2
<html><body>
<img src="http://127.0.0.1:$P3/img/a.png">
<img src="/img/b.png">
<img src="http://127.0.0.2:$P3/img/c.png">
</body></html>
EOF2
printf '127.0.0.1:%s\n127.0.0.1:%s\n' "$P" "$P3" > "$T_DIR/servers"
: > "$ALOG"
: > "$N/logs/p3.log"
timeout 60 "$HP" --servers "$T_DIR/servers" --uri /two.html \
    --wsesspage 1,1,0 > "$OUT" 2> "$OUT.err"
RC=$?
T_LAST="httperf --servers $T_DIR/servers --uri /two.html --wsesspage 1,1,0"
expect_rc 0
expect '^Total: connections [23] requests 3 replies 3 '
expect '^Page views: 1 objects/view 2\.00 bytes/view [0-9.]+ cross-origin 1 over-limit 0 redirects 0$'
expect "^Server 127\.0\.0\.1:$P: connections [12] requests 2 replies 2 "
expect "^Server 127\.0\.0\.1:$P3: connections 1 requests 1 replies 1 "
n=$(nginx_logged 2)
[ "$n" = 2 ] || fail "port $P logged $n requests, expected 2"
sort "$ALOG" | tr '\n' ' ' > "$T_DIR/got"
[ "$(cat "$T_DIR/got")" = "/img/b.png 200 /two.html 200 " ] ||
    fail "port $P: $(cat "$T_DIR/got")"
[ "$(cat "$N/logs/p3.log")" = "127.0.0.1:$P3 /img/a.png 200" ] ||
    fail "port $P3: $(cat "$N/logs/p3.log")"
ok "--servers: the object on the second server fetched there, with its Host"

# Two sessions: the second takes the second server round-robin, its page
# there; its relative object is its own server's, the absolute one too.
# (How many connections a view opens depends on when the page's
# connection is free again: the requests are exact, not the connections.)
: > "$ALOG"
: > "$N/logs/p3.log"
timeout 60 "$HP" --servers "$T_DIR/servers" --uri /two.html \
    --wsesspage 2,1,0 --rate 100 > "$OUT" 2> "$OUT.err"
RC=$?
T_LAST="httperf --servers $T_DIR/servers --uri /two.html --wsesspage 2,1,0"
expect_rc 0
expect '^Total: connections [3-6] requests 6 replies 6 '
expect '^Page views: 2 objects/view 2\.00 bytes/view [0-9.]+ cross-origin 2 over-limit 0 redirects 0$'
expect "^Server 127\.0\.0\.1:$P: connections [12] requests 2 replies 2 "
expect "^Server 127\.0\.0\.1:$P3: connections [1-3] requests 4 replies 4 "
n=$(nginx_logged 2)
[ "$n" = 2 ] || fail "port $P logged $n requests, expected 2"
sort "$N/logs/p3.log" | tr '\n' ' ' > "$T_DIR/got"
[ "$(cat "$T_DIR/got")" = "127.0.0.1:$P3 /img/a.png 200 127.0.0.1:$P3 /img/a.png 200 127.0.0.1:$P3 /img/b.png 200 127.0.0.1:$P3 /two.html 200 " ] ||
    fail "port $P3: $(cat "$T_DIR/got")"
ok "--servers: a session on the second server has its pages there"

# A server the file lists twice: each session's calls stay on its own
# entry of the file (its line of the report), not the first one's.
printf '127.0.0.1:%s\n127.0.0.1:%s\n' "$P" "$P" > "$T_DIR/twice"
: > "$ALOG"
timeout 60 "$HP" --servers "$T_DIR/twice" --uri /two.html \
    --wsesspage 2,1,0 --rate 100 > "$OUT" 2> "$OUT.err"
RC=$?
T_LAST="httperf --servers $T_DIR/twice --uri /two.html --wsesspage 2,1,0"
expect_rc 0
expect '^Total: connections [2-4] requests 4 replies 4 '
expect '^Page views: 2 objects/view 1\.00 bytes/view [0-9.]+ cross-origin 4 over-limit 0 redirects 0$'
n=$(grep -c "^Server 127\.0\.0\.1:$P: connections [12] requests 2 replies 2 " "$OUT")
[ "$n" = 2 ] || fail "not 2 servers of 2 requests each: $(grep '^Server' "$OUT")"
n=$(nginx_logged 4)
[ "$n" = 4 ] || fail "port $P logged $n requests, expected 4"
ok "a server listed twice: each session's requests on its own entry"

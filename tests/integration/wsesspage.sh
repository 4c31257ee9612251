#!/bin/sh
# --wsesspage against nginx serving the site of tests/site: every view
# fetches its page and exactly the same-origin objects the page embeds
# (each once per view, whatever the tag or the form of its URL), never
# what comments, scripts or titles hide, nor the cross-origin ones; the
# next page is the page's link; a 301 is followed.  nginx's access log
# holds exactly those URIs, as many times as the views ask.
. "$TESTLIB"

nginx_need

free_ports 1
P=$PORTS
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
	server {
		listen 127.0.0.1:$P;
		root $N/html;
		location = /redir { return 301 /sub/page3.html; }
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

/*
 * lib/htmlscan.c: the objects, links and base of a page in a guard-page
 * buffer of exactly its length (a read past it faults), as one line:
 * "tag:url" per object in order, "a:url" per link, "base:url", and the
 * counts over the limit.  Every tag kind, then the tricky cases:
 * comments and raw text hiding tags, quoting, entities, case, a cut page.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/htmlscan.h"
#include "unit.h"

/* The scan of `page' with limit `max' as one line, malloc'd. */
static char *
scan(const char *page, size_t len, size_t max)
{
	struct htmlscan r;
	struct unit_guard g;
	char *in, *out;
	size_t i, cap = 64, n = 0;

	in = unit_guard_copy(&g, page, len);
	ck_assert_int_eq(htmlscan(&r, in, len, max), 0);
	for (i = 0; i < r.objects.n; i++)
		cap += r.objects.v[i].len + 16;
	for (i = 0; i < r.links.n; i++)
		cap += r.links.v[i].len + 4;
	cap += r.base_len + 8;
	out = malloc(cap);
	ck_assert_ptr_nonnull(out);
	out[0] = '\0';
	for (i = 0; i < r.objects.n; i++) {
		ck_assert_uint_eq(strlen(r.objects.v[i].s), r.objects.v[i].len);
		n += (size_t)snprintf(out + n, cap - n, "%s%s:%s",
		    n > 0 ? " " : "", r.objects.v[i].tag, r.objects.v[i].s);
	}
	for (i = 0; i < r.links.n; i++)
		n += (size_t)snprintf(out + n, cap - n, "%sa:%s",
		    n > 0 ? " " : "", r.links.v[i].s);
	if (r.base != NULL)
		n += (size_t)snprintf(out + n, cap - n, "%sbase:%s",
		    n > 0 ? " " : "", r.base);
	if (r.over > 0 || r.links_over > 0 || r.too_long > 0)
		snprintf(out + n, cap - n, "%sover=%zu,%zu,%zu",
		    n > 0 ? " " : "", r.over, r.links_over, r.too_long);
	htmlscan_free(&r);
	htmlscan_free(&r);
	unit_guard_unmap(&g);
	return out;
}

static void
want(const char *page, const char *line)
{
	char *got = scan(page, strlen(page), HTMLSCAN_MAX_OBJECTS);

	ck_assert_msg(strcmp(got, line) == 0, "%s: got \"%s\", want \"%s\"",
	    page, got, line);
	free(got);
}

START_TEST(test_tags)
{
	want("<img src=a.png>", "img:a.png");
	want("<img srcset=\"b.png 1x, c.png 2x\" src=a.png>", "img:b.png");
	want("<img srcset=\" , b.png,\">", "img:b.png");
	want("<img srcset='' src=a.png>", "img:a.png");
	want("<script src=\"/js/app.js\"></script>", "script:/js/app.js");
	want("<link rel=stylesheet href=s.css>", "link:s.css");
	want("<link rel=\"preload\" href=f.woff2 as=font>", "link:f.woff2");
	want("<link rel='shortcut icon' href=/favicon.ico>",
	    "link:/favicon.ico");
	want("<link REL=\"alternate StyleSheet\" href=x.css>", "link:x.css");
	want("<link rel=alternate href=feed.xml><link href=n.css>", "");
	want("<link rel=stylesheets href=n.css>", "");
	want("<iframe src=f.html></iframe>", "iframe:f.html");
	want("<frameset><frame src=left.html><frame src=right.html>",
	    "frame:left.html frame:right.html");
	want("<video poster=p.jpg><source src=m.mp4></video>",
	    "video:p.jpg source:m.mp4");
	want("<object data=o.svg></object><embed src=e.swf>",
	    "object:o.svg embed:e.swf");
	want("<style>body{background:url(bg.png)} .a{b:URL( \"q.png\" )}"
	    " .c{d:url('s.png')}</style>",
	    "style:bg.png style:q.png style:s.png");
	want("<base href=\"http://h/x/\"><base href=/y/>", "base:http://h/x/");
	want("<a href=next.html>n</a><a name=x><a href=\"#top\">t</a>",
	    "a:next.html a:#top");
	want("<p src=x.png><div data=y><td background=z.png>", "");
	want("<img src=a.png><img src=a.png>", "img:a.png img:a.png");
}
END_TEST

START_TEST(test_hidden)
{
	want("<!-- <img src=c.png> --><img src=a.png>", "img:a.png");
	want("<!--> <img src=a.png>", "img:a.png");
	want("<!---> <img src=a.png>", "img:a.png");
	want("<!-- -- > <img src=c.png> -->", "");
	want("<![CDATA[ <img src=c.png> ]]><img src=a.png>", "img:a.png");
	want("<!DOCTYPE html><?xml x?><img src=a.png>", "img:a.png");
	want("<script>var s = \"<img src=c.png>\";</script><img src=a.png>",
	    "img:a.png");
	want("<script>a = '</scripts>'; \"<img src=c.png>\"</SCRIPT >"
	    "<img src=a.png>", "img:a.png");
	want("<textarea><img src=c.png></textarea><title><img src=d>"
	    "</title>", "");
	want("<noscript><img src=c.png></noscript><img src=a.png>",
	    "img:a.png");
	want("<style>/* url(c.png) */ .a{content:\"url(d.png)\"}"
	    " .b{x:myurl(e.png)} .c{y:url(f.png)}</style>", "style:f.png");
	want("<div style=\"background:url(c.png)\">", "");
	want("url(c.png) <p>url(d.png)</p>", "");
	want("</img src=c.png><img src=a.png>", "img:a.png");
	want("a < b <img src=a.png> c <3", "img:a.png");
}
END_TEST

START_TEST(test_attributes)
{
	char *got;

	want("<IMG SRC=A.PNG>", "img:A.PNG");
	want("<ScRiPt SrC=x.js></sCrIpT>", "script:x.js");
	want("<img alt='<img src=c.png>' src=\"a b.png\">", "img:a b.png");
	want("<img alt=\"x\" src='it''s.png'>", "img:it");
	want("<img src = \t\"a.png\" >", "img:a.png");
	want("<img src=a.png/>", "img:a.png/");
	want("<img/src=a.png>", "img:a.png");
	want("<img src=a.png src=b.png>", "img:a.png");
	want("<img src=\"  a.png\n\">", "img:a.png");
	want("<img src=\"a\n.p\tng\">", "img:a.png");
	want("<img src=\"&#32;a&#9;.p&#xA;n&#13;g&#x20;\">", "img:a.png");
	want("<img src=\"\">", "");
	got = scan("<img src=\"a\0b\">", 15, HTMLSCAN_MAX_OBJECTS);
	ck_assert_str_eq(got, "img:ab");
	free(got);
	want("<img src>", "");
	want("<img data-src=c.png dsrc=d.png>", "");
	want("<a href=\"?a=1&amp;b=2\">", "a:?a=1&b=2");
	want("<img src=\"&#47;x&#x2F;y&#X2f;z.png\">", "img:/x/y/z.png");
	want("<img src=\"a&lt;b&gt;c&quot;d&apos;e&AMP;f\">",
	    "img:a<b>c\"d'e&f");
	want("<img src=\"a&b&#;c&#xg;d&amp\">", "img:a&b&#;c&#xg;d&amp");
	want("<img src=\"&#233;&#x20AC;&#0;&#x110000;\">",
	    "img:\xc3\xa9\xe2\x82\xac\xef\xbf\xbd\xef\xbf\xbd");
	want("<img src=\"&#99999999999999999999;\">", "img:\xef\xbf\xbd");
	want("<style>a{b:url(a&amp;b.png)}</style>", "style:a&amp;b.png");
}
END_TEST

START_TEST(test_cut)
{
	static const char page[] = "<img src=a.png><img src=\"b.png\">";
	size_t len;
	char *got;

	/* Every prefix: never a read past it, the second image only once
	   its '>' is in. */
	for (len = 0; len <= sizeof(page) - 1; len++) {
		got = scan(page, len, HTMLSCAN_MAX_OBJECTS);
		if (len < 15)
			ck_assert_str_eq(got, "");
		else if (len < sizeof(page) - 1)
			ck_assert_str_eq(got, "img:a.png");
		else
			ck_assert_str_eq(got, "img:a.png img:b.png");
		free(got);
	}
	want("<img src=a.png><img src='b.png", "img:a.png");
	want("<img src=a.png><!-- <img src=b.png>", "img:a.png");
	want("<script><img src=c.png>", "");
	want("<style>x{y:url(a.png", "");
	want("<style>x{y:url('a.png)}</style>", "");
	want("<", "");
	want("<!", "");
	want("<!-", "");
	want("<img", "");
}
END_TEST

START_TEST(test_limits)
{
	char *page, *got, *big;
	size_t i, n = 0, cap = 1100 * 16;

	page = malloc(cap);
	ck_assert_ptr_nonnull(page);
	for (i = 0; i < 1003; i++)
		n += (size_t)snprintf(page + n, cap - n, "<img src=%zu>", i);
	for (i = 0; i < 3; i++)
		n += (size_t)snprintf(page + n, cap - n, "<a href=%zu>", i);
	got = scan(page, n, 1000);
	ck_assert_str_eq(got + strlen(got) - strlen("a:0 a:1 a:2 over=3,0,0"),
	    "a:0 a:1 a:2 over=3,0,0");
	ck_assert_ptr_nonnull(strstr(got, "img:999 a:0"));
	free(got);
	got = scan(page, n, 2);
	ck_assert_str_eq(got, "img:0 img:1 a:0 a:1 over=1001,1,0");
	free(got);
	free(page);

	/* A URL over HTMLSCAN_MAX_URL is counted, not kept; one at it is. */
	big = malloc(HTMLSCAN_MAX_URL + 64);
	ck_assert_ptr_nonnull(big);
	for (n = HTMLSCAN_MAX_URL; n <= HTMLSCAN_MAX_URL + 1; n++) {
		memcpy(big, "<img src=\"", 10);
		memset(big + 10, 'x', n);
		memcpy(big + 10 + n, "\">", 2);
		got = scan(big, n + 12, 1000);
		if (n == HTMLSCAN_MAX_URL)
			ck_assert_uint_eq(strlen(got), 4 + n);
		else
			ck_assert_str_eq(got, "over=0,0,1");
		free(got);
	}
	free(big);
}
END_TEST

static Suite *
htmlscan_suite(void)
{
	Suite *s = suite_create("htmlscan");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_tags);
	tcase_add_test(tc, test_hidden);
	tcase_add_test(tc, test_attributes);
	tcase_add_test(tc, test_cut);
	tcase_add_test(tc, test_limits);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return unit_run(htmlscan_suite());
}

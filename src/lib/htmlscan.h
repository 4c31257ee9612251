/*
 * The URLs a browser fetches before an HTML page is usable, and the
 * page's links, found by a bounded tokenizer over a body of known length
 * (not NUL-terminated; never read past it).  It knows comments (<!-- -->),
 * CDATA sections, <!...> and <?...> declarations, the raw text of
 * <script>, <style>, <textarea>, <title>, <xmp>, <iframe>, <noembed>,
 * <noframes>, <noscript> (tags in them are text), attribute values quoted
 * with " or ' or not at all, tag and attribute names in any case, and
 * character references in the values (&amp; &lt; &gt; &quot; &apos;
 * &#N; &#xH;).  A tag that the page cuts before its '>' is not reported.
 *
 * Objects, in page order:
 *   <img srcset> (its first candidate) or else <img src>, <script src>,
 *   <link href> when rel (a token list, any case) holds stylesheet,
 *   preload or icon, <iframe src>, <frame src>, <source src>,
 *   <video poster>, <object data>, <embed src>, and url(...) (quoted or
 *   not) in the text of <style> blocks outside CSS comments.
 * Links: <a href>.  Base: the first <base href>.
 * Values are returned as written, after character references, without
 * tabs, newlines, CRs and NULs, and without leading and trailing spaces;
 * empty ones are not reported.  Resolving them is the caller's business.
 *
 * Memory: the URLs found (each at most HTMLSCAN_MAX_URL bytes: longer ones
 * are counted in `too_long') and their arrays; nothing else grows with the
 * page.  At most `max' objects and `max' links are kept; the objects
 * beyond are counted in `over' (links beyond in `links_over').
 */
#ifndef HTTPERF_LIB_HTMLSCAN_H
#define HTTPERF_LIB_HTMLSCAN_H

#include <stddef.h>

#define HTMLSCAN_MAX_URL	8192	/* bytes of one URL, decoded */
#define HTMLSCAN_MAX_OBJECTS	1000	/* the page limit of the workload */

struct htmlscan_url {
	char		*s;		/* NUL-terminated, decoded */
	size_t		 len;
	const char	*tag;		/* "img", "script"... "style" for url() */
};

struct htmlscan_list {
	struct htmlscan_url *v;
	size_t		 n, cap;
};

struct htmlscan {
	struct htmlscan_list objects;	/* in page order, repeats kept */
	struct htmlscan_list links;	/* <a href>, in page order */
	char		*base;		/* the first <base href>, or NULL */
	size_t		 base_len;
	size_t		 over;		/* objects beyond `max' */
	size_t		 links_over;	/* links beyond `max' */
	size_t		 too_long;	/* URLs over HTMLSCAN_MAX_URL */
};

/*
 * Scans `len' bytes of `page' into `r' (which it first zeroes), keeping
 * at most `max' objects and `max' links.  Returns 0, or -1 when memory
 * ran out (what was found before is in `r').  htmlscan_free(r) after
 * either.
 */
int	htmlscan(struct htmlscan *r, const char *page, size_t len, size_t max);

/* Frees what htmlscan() allocated and zeroes `r'.  Harmless twice. */
void	htmlscan_free(struct htmlscan *r);

#endif

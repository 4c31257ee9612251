/*
 * HTML text escaping (html_esc.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "lib/html_esc.h"

void
html_escape_n(FILE *f, const char *s, size_t len)
{
	const unsigned char *p, *end;

	if (s == NULL)
		return;
	end = (const unsigned char *)s + len;
	for (p = (const unsigned char *)s; p < end && *p != '\0'; p++) {
		switch (*p) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		case '\t':
		case '\n':
			fputc(*p, f);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fputs("&#xFFFD;", f);
			else
				fputc(*p, f);
		}
	}
}

void
html_escape(FILE *f, const char *s)
{
	if (s != NULL)
		html_escape_n(f, s, strlen(s));
}

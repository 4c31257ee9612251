/*
 * HTML (and SVG, XML) text escaping: what the --html page and its SVG
 * plot engine write of any string they did not make.
 */
#ifndef HTTPERF_LIB_HTML_ESC_H
#define HTTPERF_LIB_HTML_ESC_H

#include <stddef.h>
#include <stdio.h>

/* Writes s with & < > " ' as entities and control characters as U+FFFD. */
void	html_escape(FILE *f, const char *s);

/* The first len bytes of s (fewer at its NUL), as html_escape(). */
void	html_escape_n(FILE *f, const char *s, size_t len);

#endif /* HTTPERF_LIB_HTML_ESC_H */

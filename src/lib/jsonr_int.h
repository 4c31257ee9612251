/*
 * Inside the JSON reader: the tree's nodes, as the parser (jsonr.c)
 * builds them and the accessors (jsonr_tree.c) read them; nothing else
 * includes this.
 */
#ifndef HTTPERF_LIB_JSONR_INT_H
#define HTTPERF_LIB_JSONR_INT_H

#include <stddef.h>

/* Objects with more members than this are indexed. */
#define JV_LINEAR	64

struct jv_member;

struct jv {
	unsigned char		 type;		/* enum jv_type */
	union {
		int		 b;
		struct {
			double	 d;
			const char *text;	/* as written, NUL-ended */
		}		 num;
		struct {
			const char *s;		/* NUL-ended */
			size_t	 len;
		}		 str;
		struct {
			struct jv *items;
			size_t	 n;
		}		 arr;
		struct {
			/* n members, then (n > JV_LINEAR) n index pointers */
			struct jv_member *m;
			size_t	 n;
		}		 obj;
	}			 u;
};

struct jv_member {
	struct jv		 v;
	const char		*key;		/* NUL-ended */
	size_t			 keylen;
};

#endif /* HTTPERF_LIB_JSONR_INT_H */

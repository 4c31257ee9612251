/*
 * Reading the tree that jv_parse() built (see jsonr.h): every accessor
 * takes NULL (an absent member) or a value of another type, and answers
 * NULL, 0, -1 or JV_NULL then, so that a caller can look a path up
 * without checking each step.  An object of more than JV_LINEAR members
 * is searched through its sorted index, a smaller one linearly.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "lib/jsonr.h"
#include "lib/jsonr_int.h"

enum jv_type
jv_type(const struct jv *v)
{
	return v != NULL ? (enum jv_type)v->type : JV_NULL;
}

/* Member `key' of `len' bytes of object v, or NULL. */
static const struct jv *
jv_getn(const struct jv *v, const char *key, size_t len)
{
	const struct jv_member *const *idx, *m;
	size_t lo, hi, mid, n, i;
	int c;

	if (v == NULL || v->type != JV_OBJ)
		return NULL;
	m = v->u.obj.m;
	n = v->u.obj.n;
	if (n <= JV_LINEAR) {
		for (i = 0; i < n; i++)
			if (m[i].keylen == len &&
			    memcmp(m[i].key, key, len) == 0)
				return &m[i].v;
		return NULL;
	}
	idx = (const struct jv_member *const *)(const void *)(m + n);
	lo = 0;
	hi = n;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (idx[mid]->keylen != len)
			c = idx[mid]->keylen < len ? -1 : 1;
		else
			c = memcmp(idx[mid]->key, key, len);
		if (c == 0)
			return &idx[mid]->v;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct jv *
jv_get(const struct jv *obj, const char *key)
{
	if (key == NULL)
		return NULL;
	return jv_getn(obj, key, strlen(key));
}

const struct jv *
jv_path(const struct jv *v, const char *path)
{
	const char *dot;

	if (path == NULL)
		return NULL;
	while (v != NULL) {
		if ((dot = strchr(path, '.')) == NULL)
			return jv_getn(v, path, strlen(path));
		v = jv_getn(v, path, (size_t)(dot - path));
		path = dot + 1;
	}
	return NULL;
}

size_t
jv_len(const struct jv *v)
{
	if (v == NULL)
		return 0;
	if (v->type == JV_ARR)
		return v->u.arr.n;
	if (v->type == JV_OBJ)
		return v->u.obj.n;
	return 0;
}

const struct jv *
jv_at(const struct jv *v, size_t i)
{
	if (v == NULL || i >= jv_len(v))
		return NULL;
	if (v->type == JV_ARR)
		return &v->u.arr.items[i];
	return &v->u.obj.m[i].v;
}

const char *
jv_key_at(const struct jv *obj, size_t i)
{
	if (obj == NULL || obj->type != JV_OBJ || i >= obj->u.obj.n)
		return NULL;
	return obj->u.obj.m[i].key;
}

size_t
jv_key_len(const struct jv *obj, size_t i)
{
	if (obj == NULL || obj->type != JV_OBJ || i >= obj->u.obj.n)
		return 0;
	return obj->u.obj.m[i].keylen;
}

int
jv_num(const struct jv *v, double *out)
{
	if (v == NULL || v->type != JV_NUM)
		return -1;
	*out = v->u.num.d;
	return 0;
}

/*
 * The magnitude of integer number v from its text, and its sign; -1 when
 * v is no number, has a fraction or exponent, or exceeds UINT64_MAX.
 */
static int
jv_integer(const struct jv *v, uint64_t *mag, int *neg)
{
	const char *s;
	uint64_t m = 0;
	unsigned d;

	if (v == NULL || v->type != JV_NUM)
		return -1;
	s = v->u.num.text;
	*neg = *s == '-';
	if (*neg)
		s++;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return -1;		/* '.', 'e', 'E' */
		d = (unsigned)(*s - '0');
		if (m > (UINT64_MAX - d) / 10)
			return -1;
		m = m * 10 + d;
	}
	*mag = m;
	return 0;
}

int
jv_u64(const struct jv *v, uint64_t *out)
{
	uint64_t m;
	int neg;

	if (jv_integer(v, &m, &neg) != 0 || (neg && m != 0))
		return -1;
	*out = m;
	return 0;
}

int
jv_i64(const struct jv *v, int64_t *out)
{
	uint64_t m;
	int neg;

	if (jv_integer(v, &m, &neg) != 0)
		return -1;
	if (neg) {
		if (m > (uint64_t)INT64_MAX + 1)
			return -1;
		/* -m without overflowing at INT64_MIN. */
		*out = m == 0 ? 0 : -(int64_t)(m - 1) - 1;
	} else {
		if (m > (uint64_t)INT64_MAX)
			return -1;
		*out = (int64_t)m;
	}
	return 0;
}

const char *
jv_str(const struct jv *v, size_t *len)
{
	if (v == NULL || v->type != JV_STR)
		return NULL;
	if (len != NULL)
		*len = v->u.str.len;
	return v->u.str.s;
}

int
jv_bool(const struct jv *v, int *out)
{
	if (v == NULL || v->type != JV_BOOL)
		return -1;
	*out = v->u.b;
	return 0;
}

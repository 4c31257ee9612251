/*
 * report/sweep_tsv.c: autobench's table, byte for byte, and read back
 * as bench2graph reads it (awk: column 1 is x, column i is y).
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/sweep_tsv.h"
#include "unit.h"

static const char header[] = "dem_req_rate\treq_rate_web1\tcon_rate_web1\t"
    "min_rep_rate_web1\tavg_rep_rate_web1\tmax_rep_rate_web1\t"
    "stddev_rep_rate_web1\tresp_time_web1\tnet_io_web1\terrors_web1\n";

static const struct sweep_tsv_row rows[] = {
	{ 200, 199.96, 19.996, 198.2, 199.9, 201.4, 1.26, 2.36, 123.44, 3,
	    7 },
	{ 6.66666666666667, 6.7, 0.7, 6.6, 6.6, 6.6, 0, 0.04, 2.96, 0,
	    100 },
	{ 1000, 12, 1, 0, 0, 0, 0, 5000.05, 0.01, 12, 0 },
};

static const char *const lines[] = {
	"200\t200.0\t20.0\t198.2\t199.9\t201.4\t1.3\t2.4\t123.4\t"
	    "42.8571428571429\n",
	"6.66666666666667\t6.7\t0.7\t6.6\t6.6\t6.6\t0.0\t0.0\t3.0\t0\n",
	"1000\t12.0\t1.0\t0.0\t0.0\t0.0\t0.0\t5000.1\t0.0\t101\n",
};

/* What `f' holds, from its start (a static buffer). */
static char *
slurp(FILE *f)
{
	static char buf[4096];
	size_t n;

	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	return buf;
}

START_TEST(test_header)
{
	FILE *f = tmpfile();

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(sweep_tsv_header(f, "web1"), 0);
	ck_assert_str_eq(slurp(f), header);
	fclose(f);
	f = tmpfile();
	ck_assert_int_eq(sweep_tsv_header(f, NULL), 0);
	ck_assert_str_eq(slurp(f), "dem_req_rate\treq_rate\tcon_rate\t"
	    "min_rep_rate\tavg_rep_rate\tmax_rep_rate\tstddev_rep_rate\t"
	    "resp_time\tnet_io\terrors\n");
	fclose(f);
}
END_TEST

START_TEST(test_row)
{
	FILE *f = tmpfile();

	ck_assert_int_eq(sweep_tsv_row(f, &rows[_i]), 0);
	ck_assert_str_eq(slurp(f), lines[_i]);
	fclose(f);
}
END_TEST

START_TEST(test_errors)
{
	ck_assert_double_eq(sweep_tsv_errors(0, 0), 101);
	ck_assert_double_eq(sweep_tsv_errors(5, 0), 101);
	ck_assert_double_eq(sweep_tsv_errors(0, 10), 0);
	ck_assert_double_eq(sweep_tsv_errors(1, 4), 25);
	ck_assert_double_eq(sweep_tsv_errors(10, 5), 200);
}
END_TEST

/* No value: an empty cell, the other columns stay in place. */
START_TEST(test_nan)
{
	struct sweep_tsv_row r = rows[0];
	FILE *f = tmpfile();

	r.min_rep_rate = r.max_rep_rate = NAN;
	ck_assert_int_eq(sweep_tsv_row(f, &r), 0);
	ck_assert_str_eq(slurp(f), "200\t200.0\t20.0\t\t199.9\t\t1.3\t2.4\t"
	    "123.4\t42.8571428571429\n");
	fclose(f);
}
END_TEST

/*
 * bench2graph's split: for column i, awk prints "x y" from each data
 * line; with -F '\t' and with awk's default blanks, which agree on a
 * table without empty cells.
 */
START_TEST(test_readback)
{
	static const char *const fs[] = { "-F '\\t'", "" };
	char path[] = "/tmp/check_sweep_tsv.XXXXXX", cmd[256], got[4096];
	char want[4096], *p;
	FILE *f, *a;
	size_t i, k, n;
	int fd, col;

	ck_assert_int_ne(fd = mkstemp(path), -1);
	ck_assert_ptr_nonnull(f = fdopen(fd, "w"));
	ck_assert_int_eq(sweep_tsv_header(f, "web1"), 0);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(sweep_tsv_row(f, &rows[i]), 0);
	ck_assert_int_eq(fclose(f), 0);
	for (k = 0; k < 2; k++)
		for (col = 2; col <= 10; col++) {
			snprintf(cmd, sizeof(cmd), "awk %s 'NR > 1 { print "
			    "$1, $%d }' %s", fs[k], col, path);
			ck_assert_ptr_nonnull(a = popen(cmd, "r"));
			n = fread(got, 1, sizeof(got) - 1, a);
			got[n] = '\0';
			ck_assert_int_eq(pclose(a), 0);
			/* The same from the lines, by hand. */
			want[0] = '\0';
			for (i = 0; i < 3; i++) {
				int c;
				const char *s = lines[i], *e;

				for (c = 1; c < col; c++)
					s = strchr(s, '\t') + 1;
				e = s + strcspn(s, "\t\n");
				p = want + strlen(want);
				sprintf(p, "%.*s %.*s\n",
				    (int)strcspn(lines[i], "\t"), lines[i],
				    (int)(e - s), s);
			}
			ck_assert_str_eq(got, want);
		}
	/* Column 8 (resp_time) as x/y numbers. */
	snprintf(cmd, sizeof(cmd), "awk -F '\\t' 'NR > 1 { printf \"%%g "
	    "%%g\\n\", $1, $8 }' %s", path);
	ck_assert_ptr_nonnull(a = popen(cmd, "r"));
	n = fread(got, 1, sizeof(got) - 1, a);
	got[n] = '\0';
	ck_assert_int_eq(pclose(a), 0);
	ck_assert_str_eq(got, "200 2.4\n6.66667 0\n1000 5000.1\n");
	ck_assert_int_eq(unlink(path), 0);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sweep_tsv");
	TCase *tc = tcase_create("sweep_tsv");

	tcase_add_test(tc, test_header);
	tcase_add_loop_test(tc, test_row, 0, (int)(sizeof(rows) /
	    sizeof(rows[0])));
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_nan);
	tcase_add_test(tc, test_readback);
	suite_add_tcase(s, tc);
	return unit_run(s);
}

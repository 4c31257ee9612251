/*
 * The script collector (--script): the calls of the class `script', whose
 * hook raised an error or returned the wrong type (BUS_SCRIPT_ERROR, from
 * script/).  Its line comes after the classic report when not 0:
 *	Errors: script N
 * and stats.script.errors in --json; --merge sums them.
 */
#ifndef HTTPERF_STAT_SCRIPT_STAT_H
#define HTTPERF_STAT_SCRIPT_STAT_H

struct collector;

extern const struct collector script_stat_collector;

#endif

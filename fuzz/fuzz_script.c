/*
 * libFuzzer target for the Lua <-> C boundary of --script
 * (src/script/): a script's request() returns the input as its request
 * string, which the C side splits over calls; then the input, cut at its
 * line ends, is a reply's header lines and its body for response().
 * Checked against the contract: the calls' requests are the input's
 * bytes in order, none empty, none lost; response() sees a body of the
 * input's length and a headers table; a hook never fails.  Contract
 * violations abort().
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lua.h>

#include "core/bus.h"
#include "core/call.h"
#include "script/script_int.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char fz_src[] =
    "function request() return fz end\n"
    "function response(status, headers, body)\n"
    "  n, st = #body, status\n"
    "  k = 0\n"
    "  for name, value in pairs(headers) do\n"
    "    k = k + #name + #value\n"
    "  end\n"
    "end\n";

/* The script, loaded once for the whole run of the fuzzer. */
static struct script *
fz_script(struct bus **bus)
{
	static struct script *s;
	static struct bus *b;
	struct script_conf cf;
	char path[] = "/tmp/fuzz_script.XXXXXX", err[512];
	FILE *f;
	int fd;

	*bus = b;
	if (s != NULL)
		return s;
	if ((fd = mkstemp(path)) == -1 || (f = fdopen(fd, "w")) == NULL)
		abort();
	fputs(fz_src, f);
	fclose(f);
	memset(&cf, 0, sizeof(cf));
	cf.file = path;
	cf.url = "http://h/";
	cf.scheme = "http";
	cf.host = "h";
	cf.method = "GET";
	cf.path = "/";
	/* request()'s start-up call returns nil: give it a string. */
	s = script_new(&cf, err, sizeof(err));
	unlink(path);
	if (s != NULL)
		abort();	/* nil from request() must be refused */
	memcpy(path + strlen(path) - 6, "XXXXXX", 6);
	if ((fd = mkstemp(path)) == -1 || (f = fdopen(fd, "w")) == NULL)
		abort();
	fprintf(f, "fz = \"GET / HTTP/1.1\\r\\n\\r\\n\"\n%s", fz_src);
	fclose(f);
	s = script_new(&cf, err, sizeof(err));
	unlink(path);
	if (s == NULL)
		abort();
	b = bus_new();
	script_start(s, NULL, b);
	*bus = b;
	return s;
}

static void
fz_requests(struct script *s, struct bus *bus, const uint8_t *data,
    size_t size)
{
	union bus_arg a = { .i = 0 };
	struct call c;
	size_t off = 0;

	lua_pushlstring(s->th, (const char *)data, size);
	lua_setglobal(s->th, "fz");
	do {
		memset(&c, 0, sizeof(c));
		bus_signal(bus, BUS_CALL_NEW, &c, a, 1);
		if (c.raw == NULL || c.raw_len == 0)
			abort();
		if (size > 0 && (off + c.raw_len > size ||
		    memcmp(c.raw, data + off, c.raw_len) != 0))
			abort();
		off += c.raw_len;
		free(c.owned);
	} while (s->pend != NULL);
	if (size > 0 && off != size)
		abort();
}

static void
fz_response(struct script *s, struct bus *bus, const uint8_t *data,
    size_t size)
{
	union bus_arg a;
	struct call c;
	const char *p = (const char *)data, *end = p + size, *nl;

	memset(&c, 0, sizeof(c));
	a.buf.p = "HTTP/1.1 200 OK";
	a.buf.len = 15;
	bus_signal(bus, BUS_CALL_RECV_HDR, &c, a, 2);
	while (p < end) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		a.buf.p = p;
		a.buf.len = (size_t)(nl - p);
		bus_signal(bus, BUS_CALL_RECV_HDR, &c, a, 2);
		p = nl + 1;
	}
	a.buf.p = (const char *)data;
	a.buf.len = size;
	bus_signal(bus, BUS_CALL_RECV_DATA, &c, a, 3);
	c.status = 200;
	a.i = 0;
	bus_signal(bus, BUS_CALL_RECV_STOP, &c, a, 4);
	lua_getglobal(s->th, "n");
	if (lua_tonumber(s->th, -1) != (lua_Number)size)
		abort();
	lua_pop(s->th, 1);
	if (script_errors(s) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bus *bus;
	struct script *s = fz_script(&bus);
	uint64_t before = script_errors(s);

	fz_requests(s, bus, data, size);
	/* An empty string is no request: counted, wrk.request() sent. */
	if (script_errors(s) != before + (size == 0))
		abort();
	s->errors = 0;
	fz_response(s, bus, data, size);
	return 0;
}

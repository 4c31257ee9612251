/*
 * libFuzzer target for options_unescape() (src/opt/options.c), the expander of
 * the --add-header and --body escapes.  The input, up to its first NUL,
 * is the string to expand; it sits in a heap buffer of exactly its length
 * plus the NUL so that AddressSanitizer sees any read past the end.  The
 * result must be a NUL-terminated buffer no longer than twice the input,
 * or an error message.  Contract violations abort().
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opt/options.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define FZ_ERRLEN	128

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in, *out, *errbuf;
	size_t inlen, outlen, i;
	unsigned nwarn = 0, sum = 0;
	volatile unsigned sink;

	if ((in = malloc(size + 1)) == NULL ||
	    (errbuf = malloc(FZ_ERRLEN)) == NULL)
		abort();
	memcpy(in, data, size);
	in[size] = '\0';
	inlen = strlen(in);
	errbuf[0] = '\0';
	out = NULL;
	outlen = (size_t)-1;
	if (options_unescape(in, &out, &outlen, &nwarn, errbuf,
	    FZ_ERRLEN) == 0) {
		if (out == NULL || outlen > 2 * inlen || out[outlen] != '\0')
			abort();
		/* Each unknown escape takes two input bytes. */
		if (nwarn > inlen / 2)
			abort();
		for (i = 0; i < outlen; i++)
			sum += (unsigned char)out[i];
		sink = sum;
		(void)sink;
		free(out);
	} else {
		if (errbuf[0] == '\0' ||
		    memchr(errbuf, '\0', FZ_ERRLEN) == NULL)
			abort();
	}
	free(errbuf);
	free(in);
	return 0;
}

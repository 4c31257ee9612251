#include "config.h"
#include "html.h"
int html_write(FILE *f, const struct jv *doc, const struct html_client *c, size_t n, char *err, size_t errlen)
{ (void)doc;(void)c;(void)err;(void)errlen; fprintf(f, "<html>%zu</html>\n", n); return 0; }

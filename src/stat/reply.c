/*
 * The measures of a completed reply (see reply.h).
 */
#include "config.h"

#include "core/call.h"
#include "stat/reply.h"

void
stat_reply_measure(const struct call *call, struct stat_reply *r)
{
	uint64_t stop = call->t_recv_stop, from = call->intended != 0 ?
	    call->intended : call->t_send_start;

	r->ahead = stop < call->t_send_start;
	r->reply = r->ahead ? 0 : stop - call->t_send_start;
	r->corrected = stop >= from ? stop - from : 0;
}

/*
 * What conn.c, conn_write.c and conn_read.c share, and conn_h2.c, which
 * drives an HTTP/2 connection; nothing else includes this.  Every
 * function that may close the connection says so: callers check
 * c->state afterwards.
 */
#ifndef HTTPERF_CORE_CONN_INT_H
#define HTTPERF_CORE_CONN_INT_H

#include <stddef.h>
#include <stdint.h>

struct call;
struct conn;

/* conn.c: the state machine. */

/* Changes the loop interest of the socket. */
void	conn_set_mask(struct conn *c, int mask);

/* Arms the inactivity watchdog if the connection waits for something. */
void	conn_watch(struct conn *c);

/*
 * After parsing: starts the head clock when a reply head or trailer
 * section is under way, stops it otherwise.
 */
void	conn_head_clock(struct conn *c, uint64_t now);

/* Removes the head call from the queue and returns it. */
struct call *conn_pop(struct conn *c);

/* Reports a failure (an errno-style cause) and closes the connection. */
void	conn_fail(struct conn *c, int err, uint64_t now);

/* After TRANSPORT_ERROR: fails the connection with the transport's cause. */
void	conn_xp_error(struct conn *c, uint64_t now);

/* conn_write.c: requests. */

/*
 * After a write whose outcome was `io': 0 when it went through
 * (TRANSPORT_OK) and the writer goes on; else waits for the event the
 * transport needs, or fails the connection, and returns 1.  Shared by
 * the HTTP/1.1 flush and the HTTP/2 one.
 */
int	conn_write_blocked(struct conn *c, enum transport_io io, uint64_t now);

/* Marks `call' as the one being written now (BUS_CALL_SEND_START). */
void	conn_send_start(struct conn *c, struct call *call, uint64_t now);

/*
 * Writes as much of the unsent requests as the transport takes; watches
 * for writability only when it takes no more.  May close.
 */
void	conn_flush(struct conn *c, uint64_t now);

/* conn_read.c: replies. */

/* 1xx replies accepted before one reply (HTTP/2: on one stream). */
#define CONN_MAX_INTERIM 100

/* Reads what the transport has and parses it.  May close. */
void	conn_read(struct conn *c, uint64_t now);

#endif

/*
 * The pool and the queue of the request-rate workload (--call-rate,
 * gen/call_rate.h), apart from the core so that a unit test drives them
 * by hand.
 *
 * Requests arrive on the schedule (call_pool_arrival) and wait in a FIFO
 * queue of their intended times.  The pool has at most max_conns
 * keep-alive connections, opened only when requests wait that no
 * connection up or on its way has room for.  A connection carries as many
 * requests at once as its capacity: one on HTTP/1.1 (no pipelining: a
 * request never waits behind another's reply), its concurrent streams on
 * HTTP/2 (call_pool_set_capacity); a connection on its way is counted for
 * call_pool_expect()'s.  The head of the queue goes to the connection
 * that has had room longest, and one that still has room after it goes to
 * the back of the line, so the requests are spread over the connections
 * and every connection is kept warm.
 *
 * A connection that fails before it is up takes one waiting request with
 * it (never sent), so a server refusing connections costs one attempt per
 * request and the run still ends.  A connection that closes later leaves
 * the pool; its request in flight has ended (failed) and the queue goes on
 * to the others, or to new ones.
 *
 * The queue holds at most queue_max requests (CALL_POOL_QUEUE_MAX: 8 bytes
 * each, allocated as it grows); an arrival that finds it full is never
 * sent.  Every request is counted once: sent (then it ends, replied or
 * failed) or missed (never sent: queue full, its connection failed, no
 * URI for it, or still waiting when the run is drained or stopped).
 *
 * Connections are named by a 64-bit id (slot and generation), so an event
 * about a connection that has left the pool is recognised and ignored.
 */
#ifndef HTTPERF_GEN_CALL_POOL_H
#define HTTPERF_GEN_CALL_POOL_H

#include <stddef.h>
#include <stdint.h>

/* The most requests waiting at once: 8 MiB of intended times. */
#define CALL_POOL_QUEUE_MAX	((size_t)1 << 20)

/* What the pool asks of its owner; every call may re-enter the pool. */
struct call_pool_ops {
	/*
	 * Opens connection `id' (call_pool_set_user() gives it its handle).
	 * It reports back with call_pool_connected() or call_pool_closed(),
	 * possibly before this returns.
	 */
	void	(*open)(void *arg, uint64_t id, uint64_t now);
	/*
	 * Sends one request, meant for `intended', on connection `id'
	 * (handle `user').  Returns 0: it ends with call_pool_call_done()
	 * (or the connection's call_pool_closed()); or -1: not sent.
	 */
	int	(*send)(void *arg, uint64_t id, void *user, uint64_t intended,
		    uint64_t now);
	/* Closes connection `id' (it reports back with call_pool_closed()). */
	void	(*close)(void *arg, uint64_t id, void *user, uint64_t now);
	/* `n' requests were never sent. */
	void	(*missed)(void *arg, uint64_t n, uint64_t now);
	/* Every request has been sent and ended, or missed: called once. */
	void	(*done)(void *arg, uint64_t now);
};

enum call_pool_state {
	CALL_POOL_FREE,		/* no connection */
	CALL_POOL_OPENING,	/* connecting */
	CALL_POOL_IDLE,		/* up, room for a request (on the idle
				   list) */
	CALL_POOL_BUSY,		/* up, as many requests as its capacity */
	CALL_POOL_DEAD,		/* takes no more, closing (its requests in
				   flight may still end) */
};

struct call_pool_slot {
	enum call_pool_state state;
	uint32_t	 gen;		/* bumped when the slot is freed */
	void		*user;		/* the owner's handle */
	size_t		 prev, next;	/* idle list, or free list (next) */
	size_t		 inflight;	/* requests sent, not ended */
	size_t		 cap;		/* most in flight at once (>= 1) */
	size_t		 burst_sent;	/* sent in this burst (call_pool_burst) */
	int		 retire;	/* DEAD: closed once none is in
					   flight (call_pool_set_max_conns) */
};

struct call_pool {
	const struct call_pool_ops *ops;
	void		*arg;
	size_t		 max_conns;
	uint64_t	 total;		/* requests; 0: no limit */
	size_t		 queue_max;

	struct call_pool_slot *slots;
	size_t		 nslots;	/* slots used so far */
	size_t		 slots_cap;
	size_t		 free_head;	/* freed slots, to reuse */
	size_t		 idle_head;	/* idle longest */
	size_t		 idle_tail;

	uint64_t	*q;		/* ring of intended times */
	size_t		 qcap;
	size_t		 qhead;
	size_t		 qlen;

	size_t		 nopen;		/* slots not FREE */
	size_t		 nopening;
	size_t		 ndead;		/* slots DEAD */
	size_t		 nbusy;		/* requests in flight */
	size_t		 open_cap;	/* requests a connection on its way
					   is counted for */

	uint64_t	 made;		/* arrivals */
	uint64_t	 sent;
	uint64_t	 ended;		/* sent and over */
	uint64_t	 missed;
	uint64_t	 opened;	/* connections opened */
	size_t		 max_queued;	/* longest the queue was */

	int		 burst;	/* a connection takes requests in bursts
				   (call_pool_burst) */
	int		 draining;
	int		 stopped;
	int		 finished;	/* done was called */
	int		 pumping;
	int		 again;
};

/*
 * Prepares an empty pool of at most `max_conns' (>= 1) connections for
 * `total' requests (0: no limit) with at most `queue_max' (>= 1) waiting.
 */
void	call_pool_init(struct call_pool *p, size_t max_conns, uint64_t total,
	    size_t queue_max, const struct call_pool_ops *ops, void *arg);

/* Frees its memory (the connections are the owner's). */
void	call_pool_fini(struct call_pool *p);

/*
 * Whether the pool takes another arrival (not stopped, drained or done,
 * the total not reached), so that the owner signals only arrivals the
 * pool counts.
 */
int	call_pool_wants(const struct call_pool *p);

/*
 * One arrival of the schedule, meant for `intended'.  Returns 0, or -1
 * when it was the last one wanted (the total is reached).
 */
int	call_pool_arrival(struct call_pool *p, uint64_t intended,
	    uint64_t now);

/*
 * How many requests a connection opened from now on is expected to carry
 * at once (>= 1; 1 until told): each connection on its way is counted
 * for that many waiting requests, so that HTTP/2 opens one connection per
 * `per_conn' requests waiting, not one per request.
 */
void	call_pool_expect(struct call_pool *p, size_t per_conn);

/*
 * From now on a connection takes requests in bursts: up to its capacity
 * at once, then none until every one of them has ended (HTTP/1.1
 * pipelining as --burst-length and wrk do it), so that a reply that
 * closes the connection (a keep-alive limit that is a multiple of the
 * burst) finds no request behind it.  Without it, a connection takes a
 * request whenever it has room.
 */
void	call_pool_burst(struct call_pool *p);

/* Sets the handle of connection `id' (from ops->open). */
void	call_pool_set_user(struct call_pool *p, uint64_t id, void *user);

/*
 * Connection `id' carries up to `cap' (>= 1) requests at once from now
 * on (1 until told; an HTTP/2 connection's stream limit, which its
 * server's SETTINGS can change).  Requests already in flight above it
 * stay.
 */
void	call_pool_set_capacity(struct call_pool *p, uint64_t id, size_t cap,
	    uint64_t now);

/*
 * Changes the most connections to `max_conns' (>= 1) while the run goes
 * on (the closed loop's concurrency, gen/call_rate.h): above it, idle
 * connections close now, busy ones take no more and close once their
 * requests in flight end, those on their way close; below it, more are
 * opened as requests wait.  Connections closing count until they are
 * closed, so the server never sees more than the most at once.
 */
void	call_pool_set_max_conns(struct call_pool *p, size_t max_conns,
	    uint64_t now);

/* Connection `id' is up. */
void	call_pool_connected(struct call_pool *p, uint64_t id, uint64_t now);

/*
 * A request in flight on connection `id' ended (replied or failed);
 * `reusable': the connection can carry more (else it takes no more, and
 * its other requests in flight, if any, still end).
 */
void	call_pool_call_done(struct call_pool *p, uint64_t id, int reusable,
	    uint64_t now);

/* Connection `id' closed (whatever its state): it leaves the pool. */
void	call_pool_closed(struct call_pool *p, uint64_t id, uint64_t now);

/*
 * No more arrivals (the URIs ran out): the waiting requests are missed,
 * those in flight finish, then done.
 */
void	call_pool_drain(struct call_pool *p, uint64_t now);

/*
 * The run is over: the waiting requests are missed, the idle connections
 * closed, and nothing more is asked of the owner but those closes.
 * Harmless twice.
 */
void	call_pool_stop(struct call_pool *p, uint64_t now);

#endif

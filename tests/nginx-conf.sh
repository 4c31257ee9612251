# tests/nginx-conf.sh -- the part of an nginx configuration that the
# tests (tests/integration/lib.sh) and the benchmarks (bench/*.sh) share:
# one worker whose pid file, logs and temporary files stay under the
# test's own directory, so that no system path is written.  Sourced by
# POSIX sh and bash alike; defines functions only.

# nginx_conf_main DIR DAEMON CONNS [NOFILE]: the main and events contexts.
# DAEMON is on or off; CONNS the worker's connections; NOFILE, when
# given, its open-files limit.  Root runs the worker as root, since the
# files are the test's.
nginx_conf_main() {
	printf 'worker_processes 1;\ndaemon %s;\npid %s/nginx.pid;\n' "$2" "$1"
	printf 'error_log %s/logs/error.log;\n' "$1"
	[ "$(id -u)" = 0 ] && printf 'user root;\n'
	[ -n "${4:-}" ] && printf 'worker_rlimit_nofile %s;\n' "$4"
	printf 'events { worker_connections %s; }\n' "$3"
}

# nginx_conf_temps DIR: every temporary path of the http context, in DIR/tmp.
nginx_conf_temps() {
	for _nct in client_body proxy fastcgi uwsgi scgi; do
		printf '\t%s_temp_path %s/tmp;\n' "$_nct" "$1"
	done
}

#!/bin/sh
# Bootstrap the build: make sure every package the full program and its
# tests use is there, then run autoreconf and configure (arguments go to
# configure; NOCONFIGURE=1 stops after autoreconf).
#
# On Debian or Ubuntu (dpkg-query and apt-get), as root, whatever is
# missing of the lists below is installed with apt-get; not as root, the
# one apt-get command that installs it is printed, and autogen.sh stops
# only when something the build cannot do without is missing (configure
# then says in its summary what each other missing piece turns off).
# Elsewhere what the build needs is looked for by command and pkg-config
# module.
set -e
cd "$(dirname "$0")"

# What the build cannot do without.
BUILD="autoconf automake libtool make gcc pkg-config libssl-dev zlib1g-dev"
# The rest of the full program (HTTP/2, the io_uring backend, the bash
# completion's directory, --script's LuaJIT) and the unit tests (Check).
FULL="libnghttp2-dev liburing-dev libluajit-5.1-dev bash-completion check"
# What the integration tests use (each says why when it skips without
# it); nginx-light (or nginx where there is no nginx-light) starts its
# service when installed, as Debian's nginx packages do.
TESTS="openssl mandoc nginx-light|nginx python3 python3-jsonschema tinyproxy \
    time parallel iproute2 procps util-linux poppler-utils chromium wrk"

# installed PKG: dpkg has PKG installed.
installed() {
	dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null |
	    grep -q ' installed$'
}
# found PKG: what PKG provides is there even if dpkg did not install it
# (a tool or library built by hand): the command or pkg-config module
# the build looks for.
found() {
	case $1 in
	autoconf) command -v autoreconf ;;
	automake|make|pkg-config) command -v "$1" ;;
	libtool) command -v libtoolize ;;
	gcc) command -v cc ;;
	libssl-dev) pkg-config --exists openssl && echo ;;
	zlib1g-dev) pkg-config --exists zlib && echo ;;
	libnghttp2-dev) pkg-config --exists libnghttp2 && echo ;;
	libluajit-5.1-dev) pkg-config --exists luajit && echo ;;
	liburing-dev) pkg-config --exists 'liburing >= 2.3' && echo ;;
	check) pkg-config --exists 'check >= 0.10.0' && echo ;;
	*) false ;;
	esac > /dev/null 2>&1
}
# available PKG: apt can install PKG (or its package lists are empty,
# so that it cannot tell).
available() {
	[ "$apt_known" = 0 ] ||
	    apt-cache policy "$1" 2>/dev/null | grep -q 'Candidate: [^(]'
}
# missing LIST: sets miss to the packages of LIST not installed; a word
# A|B is there when A or B is, else stands for the first of them apt
# can install.  Packages apt cannot install here are left out and added
# to unavail.
missing() {
	miss=""
	for w in $1; do
		alt=$(echo "$w" | tr '|' ' ')
		pick=""
		for p in $alt; do
			if installed "$p"; then
				pick=have
				break
			fi
		done
		[ "$pick" = have ] && continue
		found "$w" && continue
		for p in $alt; do
			if available "$p"; then
				pick=$p
				break
			fi
		done
		if [ -n "$pick" ]; then
			miss="$miss $pick"
		else
			unavail="$unavail ${alt%% *}"
		fi
	done
}

if command -v dpkg-query >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
	root=0
	[ "$(id -u)" = 0 ] && root=1
	# look: sets need_build and need_rest to what is missing of BUILD
	# and of the rest, unavail to what apt cannot install.
	look() {
		apt_known=0
		apt-cache policy make 2>/dev/null | grep -q 'Candidate: [^(]' &&
		    apt_known=1
		unavail=""
		missing "$BUILD"
		need_build=$miss
		missing "$FULL $TESTS"
		need_rest=$miss
	}
	look
	if [ $root = 1 ] && [ -n "$need_build$need_rest$unavail" ]; then
		# Fresh package lists first, then look again.
		echo "autogen.sh: missing:$need_build$need_rest$unavail; apt-get update"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq
		look
	fi
	if [ -n "$unavail" ]; then
		echo "autogen.sh: not available from apt here:$unavail (configure and the tests say what that turns off)"
	fi
	if [ -n "$need_build$need_rest" ]; then
		if [ $root = 1 ]; then
			echo "autogen.sh: installing:$need_build$need_rest"
			# shellcheck disable=SC2086 # one word a package
			apt-get install -y -qq $need_build $need_rest
		else
			echo "autogen.sh: not installed:$need_build$need_rest; install them with:" >&2
			echo "  sudo apt-get install -y$need_build$need_rest" >&2
			if [ -n "$need_build" ]; then
				echo "autogen.sh: cannot build without:$need_build" >&2
				exit 1
			fi
		fi
	fi
else
	# Not Debian: what the build needs, by command or pkg-config module
	# (named as Debian's packages, for want of the system's names).
	miss=""
	for p in $BUILD; do
		found "$p" || miss="$miss $p"
	done
	if [ -n "$miss" ]; then
		echo "autogen.sh: cannot build without (Debian names):$miss" >&2
		exit 1
	fi
fi

autoreconf -fi
if [ "${NOCONFIGURE:-}" = "" ]; then
	./configure "$@"
fi

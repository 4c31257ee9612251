#!/bin/sh
# Bootstrap the build: make sure the tools are there, then run autoreconf
# and configure.  As root on a Debian/Ubuntu machine missing packages are
# installed with apt; otherwise the exact install command is printed.
# Check (the unit tests' framework) is installed with the rest but is not
# required: without it configure warns and `make check' says why it
# cannot run.
set -e
cd "$(dirname "$0")"

PKGS="autoconf automake libtool make gcc pkg-config libssl-dev check zlib1g-dev \
    liburing-dev"
missing=""
command -v autoreconf >/dev/null 2>&1 || missing="$missing autoconf"
command -v automake >/dev/null 2>&1 || missing="$missing automake"
command -v libtoolize >/dev/null 2>&1 || missing="$missing libtool"
command -v make >/dev/null 2>&1 || missing="$missing make"
command -v cc >/dev/null 2>&1 || missing="$missing gcc"
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
if command -v pkg-config >/dev/null 2>&1; then
	pkg-config --exists openssl || missing="$missing libssl-dev"
	pkg-config --exists zlib || missing="$missing zlib1g-dev"
fi
if [ -n "$missing" ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "autogen.sh: installing:$missing"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq
		apt-get install -y -qq $PKGS
	else
		echo "autogen.sh: missing build dependencies:$missing" >&2
		echo "install them with:" >&2
		echo "  sudo apt-get install -y $PKGS" >&2
		exit 1
	fi
fi

autoreconf -fi
if [ "${NOCONFIGURE:-}" = "" ]; then
	./configure "$@"
fi

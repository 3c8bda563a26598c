#!/bin/sh
# Runs a test with a real Secret Service: a private D-Bus session and an
# unlocked gnome-keyring (secrets component) with an empty password, its
# keyrings in a throwaway folder.
set -e
keyring_home="$(mktemp -d)"
trap 'rm -rf "$keyring_home"' EXIT
export XDG_DATA_HOME="$keyring_home/data" XDG_RUNTIME_DIR="$keyring_home/run"
mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
dbus-run-session -- sh -c '
    echo "" | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1 || {
        echo "run-with-keyring: gnome-keyring-daemon could not start" >&2; exit 1; }
    "$@"' sh "$@"

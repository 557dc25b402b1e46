#!/bin/sh
# Runs a command inside a private D-Bus session with an unlocked gnome-keyring (empty password) and a
# temporary HOME, so keychain tests (keytar → libsecret) use a throwaway keyring, never the user's.
#   scripts/with-keyring.sh npx vitest run electron/vault.test.ts
set -eu

if [ "$#" -eq 0 ]; then
  echo "usage: scripts/with-keyring.sh <command> [args...]" >&2
  exit 2
fi
for tool in dbus-run-session gnome-keyring-daemon; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "with-keyring: $tool is missing (Debian/Ubuntu: apt-get install dbus dbus-x11 gnome-keyring)" >&2
    exit 1
  fi
done

home=$(mktemp -d "${TMPDIR:-/tmp}/vibeeval-keyring.XXXXXX")
trap 'rm -rf "$home"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -p "$home/.local/share/keyrings" "$home/.config" "$home/.cache" "$home/runtime"
chmod 700 "$home/runtime"

export HOME="$home" XDG_DATA_HOME="$home/.local/share" XDG_CONFIG_HOME="$home/.config" \
  XDG_CACHE_HOME="$home/.cache" XDG_RUNTIME_DIR="$home/runtime"
unset DBUS_SESSION_BUS_ADDRESS GNOME_KEYRING_CONTROL

status=0
# shellcheck disable=SC2016 # expanded by the inner shell
dbus-run-session -- sh -c '
  # --unlock reads the password on stdin and creates the login keyring with it. The password is an empty
  # line: gnome-keyring 42 reads zero bytes (echo -n "") as "no password" and then creates no keyring at
  # all (libsecret fails with "Object does not exist at path .../collection/login").
  # The daemon leaves with the session bus when the command is done.
  eval "$(printf "\n" | gnome-keyring-daemon --unlock --components=secrets)" || exit 1
  export GNOME_KEYRING_CONTROL
  exec "$@"
' with-keyring "$@" || status=$?
exit "$status"

#!/bin/bash
# A real `systemd --user` manager for a throwaway user, on a machine whose PID 1 is not systemd.
# Usage, as root: user-manager.sh USER WORK [FOLDER...]
#   Creates USER, a delegated cgroup and /run/user/UID, and starts in a private mount namespace
#   a journald of its own (empty tmpfs journal folders: nothing reaches the machine's journal)
#   and `systemd --user` for USER. Prints one line "ready PID UID HOME" (PID: the manager, whose
#   namespace `nsenter -t PID -m` enters) or "failed WHY", then waits for end of file on stdin:
#   the test process holds the only writer, so its end (even a crash) removes everything again,
#   and the FOLDERs too (where the test installed what the user's services run).
# Why each step: sd_booted() needs /run/systemd/system, which only the namespace sees; service
# sandboxing needs /run to be a mount point and /run/systemd/unit-root to exist, as on a booted
# host; the manager needs a cgroup v2 subtree it owns (on hybrid hosts also name=systemd).
set -u
user=$1 work=$2
shift 2
extra=("$@")
trap '' HUP INT TERM PIPE

fail() { echo "failed $*"; journald=$(cat "$work/journald.pid" 2>/dev/null); cleanup; exit 1; }

cleanup() {
    local _ c pid
    if [ -n "${manager:-}" ]; then
        nsenter -t "$manager" -m -- runuser -u "$user" -- env XDG_RUNTIME_DIR="/run/user/$uid" \
            DBUS_SESSION_BUS_ADDRESS="unix:path=/run/user/$uid/bus" systemctl --user exit >/dev/null 2>&1
        for _ in $(seq 50); do kill -0 "$manager" 2>/dev/null || break; sleep 0.2; done
    fi
    # Whatever is left in the user's cgroups (services, the manager), then the journald.
    for c in "${cgroups[@]}"; do
        for pid in $(cat $(find "$c/user.slice/user-$uid.slice" -name cgroup.procs 2>/dev/null) 2>/dev/null); do
            kill -9 "$pid" 2>/dev/null
        done
    done
    [ -n "${journald:-}" ] && kill "$journald" 2>/dev/null
    sleep 0.5
    for c in "${cgroups[@]}"; do
        [ -d "$c/user.slice/user-$uid.slice" ] && find "$c/user.slice/user-$uid.slice" -depth -type d -exec rmdir {} \; 2>/dev/null
    done
    rm -rf "/run/user/$uid"
    userdel -r "$user" >/dev/null 2>&1
    rm -rf "${extra[@]}"
}

# All in a function, read whole before it runs: bash reads a script as it goes, so an edit
# to this file meanwhile would otherwise break the cleanup at its end.
main() {
id "$user" >/dev/null 2>&1 && { echo "failed user $user exists already"; exit 1; }
useradd -m -s /bin/bash "$user" || { echo "failed useradd $user"; exit 1; }
uid=$(id -u "$user"); home=$(getent passwd "$user" | cut -d: -f6)
install -d -o "$user" -g "$user" -m 0700 "/run/user/$uid"
if [ "$(stat -fc %T /sys/fs/cgroup)" = cgroup2fs ]; then cgroups=(/sys/fs/cgroup)
else cgroups=(/sys/fs/cgroup/unified); [ -d /sys/fs/cgroup/systemd ] && cgroups+=(/sys/fs/cgroup/systemd); fi
relative=user.slice/user-$uid.slice/user@$uid.service
for c in "${cgroups[@]}"; do mkdir -p "$c/$relative" && chown -R "$user:" "$c/$relative" || fail "cgroup $c"; done

cat > "$work/manager.sh" <<INNER
#!/bin/bash
set -e
mount --make-rprivate /
mount --bind /run /run
mount -t tmpfs -o mode=0755 tmpfs /run/systemd
mkdir -p /run/systemd/system /run/systemd/journal
mkdir -m 0700 /run/systemd/unit-root
# A mount point as journald would make it (empty: harmless outside), made just before use.
mkdir -p /run/log/journal
mount -t tmpfs -o mode=0755 tmpfs /run/log/journal
if [ -d /var/log/journal ]; then mount -t tmpfs -o mode=0755 tmpfs /var/log/journal; fi
SYSTEMD_LOG_TARGET=console setsid /lib/systemd/systemd-journald </dev/null >$work/journald.log 2>&1 &
echo \$! > $work/journald.pid
for _ in \$(seq 50); do [ -S /run/systemd/journal/socket ] && break; sleep 0.1; done
for c in ${cgroups[*]}; do echo \$\$ > \$c/$relative/cgroup.procs; done
exec runuser -u $user -- env -i HOME=$home USER=$user LOGNAME=$user SHELL=/bin/bash \
    PATH=/usr/local/bin:/usr/bin:/bin XDG_RUNTIME_DIR=/run/user/$uid LANG=C.UTF-8 \
    /lib/systemd/systemd --user --log-target=journal
INNER
chmod 0755 "$work/manager.sh"
setsid unshare -m --propagation private "$work/manager.sh" >"$work/manager.log" 2>&1 </dev/null &
manager=
for _ in $(seq 100); do
    manager=$(head -1 "${cgroups[0]}/$relative/init.scope/cgroup.procs" 2>/dev/null)
    [ -n "$manager" ] && break
    sleep 0.1
done
[ -n "$manager" ] || fail "the manager did not start: $(tr '\n' ' ' < "$work/manager.log")"
state=
for _ in $(seq 100); do
    state=$(nsenter -t "$manager" -m -- runuser -u "$user" -- env XDG_RUNTIME_DIR="/run/user/$uid" \
        DBUS_SESSION_BUS_ADDRESS="unix:path=/run/user/$uid/bus" systemctl --user is-system-running 2>/dev/null)
    case $state in running|degraded) break;; esac
    sleep 0.2
done
case $state in running|degraded) ;; *) fail "manager state '$state'";; esac
# Read now: WORK may be gone by the cleanup (the test process's own folders go with it).
journald=$(cat "$work/journald.pid")
echo "ready $manager $uid $home"
cat >/dev/null
cleanup
}
main
exit

#!/bin/bash
# tests/systemd.sh: part of `make check-real`.  Runs as root in a
# `qemu/run --hostfs --systemd` guest: this machine's systemd is PID 1, the
# module is loaded.  The systemd recipes of docs/using.md, run as units of an
# ordinary user with systemd-run and systemctl: what PrivateDevices=,
# DevicePolicy=, DeviceAllow= and BindPaths= do to nosec-run's two routes
# (the forced execve, which needs no device, and the device's ioctl).
# Each unit runs a setuid-root copy of id(1), side by side with a plain
# unit.  TAP output, then "N passed, N failed".
# Conditions are strings check() evals, which read the variables they
# name: hence the two exceptions below.
# shellcheck disable=SC2016,SC2034
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"
tap_start systemd.sh /tmp/systemd
nosec_run=/nosec/bin/nosec-run	# the tree's, by path: units have their own PATH

user=nosecsd
useradd -m "$user"
uid=$(id -u "$user")
mkdir -p /opt/nosec-sd
install -m 4755 -o root /usr/bin/id /opt/nosec-sd/suid-id
suid=/opt/nosec-sd/suid-id

# unit NAME PROPERTY...  -- CMD...: CMD in a transient service of the user
# (no sysinit.target: the guest starts nothing else); its output in
# out.NAME, systemd-run's status (the service's exit status) in rc_NAME.
unit() {
	local name=$1 props=()
	shift
	while [ "$1" != -- ]; do
		props+=(-p "$1")
		shift
	done
	shift
	systemd-run --wait --pipe --quiet -p DefaultDependencies=no \
		-p User="$user" "${props[@]}" "$@" >"$work/out.$name" 2>&1
	eval "rc_$name=\$?"
}

check "systemd is PID 1 and answers" \
	eval '[ "$(cat /proc/1/comm)" = systemd ] && systemctl is-system-running >/dev/null'

rm -f "$work"/out.*
unit plain -- "$suid" -u
unit forced -- "$nosec_run" --restrict --force "$suid" -u
check "a plain unit of $user runs the setuid copy as root (euid 0)" eval 'rc plain 0 && is plain 0'
check "nosec-run --restrict --force in a unit: the setuid copy keeps euid $uid" \
	eval 'rc forced 0 && is forced "$uid"'

# PrivateDevices=yes: a /dev of the unit's own, without /dev/nosec_exec.
rm -f "$work"/out.*
unit nodev PrivateDevices=yes -- sh -c '[ ! -e /dev/nosec_exec ] && [ -e /dev/null ]'
unit forced PrivateDevices=yes -- "$nosec_run" --restrict --force "$suid" -u
unit nosec PrivateDevices=yes -- "$nosec_run" "$suid" -u
unit all PrivateDevices=yes -- "$nosec_run" --restrict-all "$suid" -u
check "PrivateDevices=yes: the unit's /dev has no nosec_exec" eval 'rc nodev 0'
check "PrivateDevices=yes: nosec-run --restrict --force runs, euid $uid (the forced route needs no device)" \
	eval 'rc forced 0 && is forced "$uid"'
check "PrivateDevices=yes: a plain nosec-run runs, euid $uid (execveat with the flag needs no device)" \
	eval 'rc nosec 0 && is nosec "$uid"'
check "PrivateDevices=yes: nosec-run --restrict-all says the device is missing here (status 125)" \
	eval 'rc all 125 && has all "module is loaded, but /dev/nosec_exec is missing here" &&
	      ! has all "^0$"'

# --restrict-all's device in a private /dev: the node bound in, and allowed.
rm -f "$work"/out.*
unit bound PrivateDevices=yes BindPaths=/dev/nosec_exec \
	"DeviceAllow=/dev/nosec_exec rw" -- "$nosec_run" --restrict-all "$suid" -u
unit closed PrivateDevices=yes BindPaths=/dev/nosec_exec -- "$nosec_run" --restrict-all "$suid" -u
check "PrivateDevices=yes + BindPaths= + DeviceAllow=/dev/nosec_exec rw: nosec-run --restrict-all runs, euid $uid" \
	eval 'rc bound 0 && is bound "$uid"'
check "PrivateDevices=yes + BindPaths= without DeviceAllow=: the device cgroup refuses the open (125, named)" \
	eval 'rc closed 125 && has closed "cannot open /dev/nosec_exec: Operation not permitted" &&
	      ! has closed "^0$"'

# DevicePolicy=closed alone: the node is there, the open is what is allowed.
rm -f "$work"/out.*
unit allowed DevicePolicy=closed "DeviceAllow=/dev/nosec_exec rw" -- "$nosec_run" --restrict-all "$suid" -u
unit denied DevicePolicy=closed -- "$nosec_run" --restrict-all "$suid" -u
unit nosec DevicePolicy=closed -- "$nosec_run" "$suid" -u
unit forced DevicePolicy=closed -- "$nosec_run" --restrict --force "$suid" -u
check "DevicePolicy=closed + DeviceAllow=/dev/nosec_exec rw: nosec-run --restrict-all runs, euid $uid" \
	eval 'rc allowed 0 && is allowed "$uid"'
check "DevicePolicy=closed without DeviceAllow=: nosec-run --restrict-all refused (125, the device named)" \
	eval 'rc denied 125 && has denied "cannot open /dev/nosec_exec: Operation not permitted"'
check "DevicePolicy=closed without DeviceAllow=: a plain nosec-run runs, euid $uid (no device needed)" \
	eval 'rc nosec 0 && is nosec "$uid"'
check "DevicePolicy=closed without DeviceAllow=: nosec-run --restrict --force runs, euid $uid" \
	eval 'rc forced 0 && is forced "$uid"'

# docs/using.md's unit file, started with systemctl.
rm -f "$work"/out.*
cat >/etc/systemd/system/nosec-recipe.service <<EOF
[Unit]
DefaultDependencies=no
[Service]
Type=oneshot
User=$user
ExecStart=$nosec_run --restrict --force $suid -u
PrivateDevices=yes
StandardOutput=file:$work/out.recipe
EOF
systemctl daemon-reload
systemctl start nosec-recipe.service >"$work/out.start" 2>&1
rc_start=$?
check "docs/using.md's unit (nosec-run --restrict --force, PrivateDevices=yes): systemctl start succeeds, euid $uid" \
	eval 'rc start 0 && is recipe "$uid" &&
	      [ "$(systemctl show -P Result nosec-recipe.service)" = success ]'
rm -f /etc/systemd/system/nosec-recipe.service
systemctl daemon-reload

rm -f "$work"/out.*
tap_done

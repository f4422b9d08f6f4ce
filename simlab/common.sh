# simlab/common.sh: shared definitions of the simulated lab's scripts
# (labctl, faultd, host).  Sourced by bash, never run on its own.
#
# Naming (every object carries the lab name NAME):
#   state dir        /run/labrat-lab/NAME
#   host namespace   NAME-em-a, NAME-bce-b, ...
#   root-side veths  TAG m INDEX, bridge TAG br  (TAG = first 6 alnum chars of
#                    NAME + 3 hex digits of its cksum: interface names <= 15)
#   processes        sshd -f STATE/hosts/H/etc-ssh/sshd_config,
#                    labctl ... --name NAME (faultd, boot helpers)

SIMLAB_ROOT=${LABRAT_LAB_ROOT:-/run/labrat-lab}
SIMLAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# tbf_args KBIT: the shaper's burst and latency for a lab whose links run
# at KBIT: 10 ms of that rate, at least 12 kB (a 9000-byte frame must fit)
# and at most 128 kB (what every rate from 105 Mbit/s up gets).  A fixed
# 128 kB would let a 1 s iperf3 run at 10 Mbit/s through ~3 % above the
# link's rate, which labrat rightly calls implausible.
tbf_args() {
	local b=$(($1 * 1000 / 8 / 100))
	[ "$b" -lt 12288 ] && b=12288
	[ "$b" -gt 131072 ] && b=131072
	echo "burst $b latency 5ms"
}
BASE_KBIT=1000000

die() {
	echo "simlab: $*" >&2
	exit 1
}

usage_die() {
	echo "simlab: $*" >&2
	exit 2
}

valid_name() {
	[[ $1 =~ ^[a-z][a-z0-9-]{0,31}$ ]]
}

valid_rev() {
	[[ $1 =~ ^[A-Za-z0-9._-]{1,64}$ ]]
}

# lab_tag NAME: the short per-lab prefix of root-side interface names.
lab_tag() {
	local p=${1//-/} sum
	p=${p:0:6}
	sum=$(printf '%s' "$1" | cksum)
	printf '%s%03x' "$p" $(( ${sum%% *} % 4096 ))
}

# lab_vars NAME: set the derived names of lab NAME.
lab_vars() {
	LAB=$1
	STATE=$SIMLAB_ROOT/$LAB
	TAG=$(lab_tag "$LAB")
	BR=${TAG}br
}

# host_ns HOST: the namespace of HOST in the current lab.
host_ns() {
	printf '%s-%s' "$LAB" "$1"
}

# The processes of a namespace (sshd, sessions, anything a host started).
ns_pids() {
	ip netns pids "$1" 2>/dev/null
}

kill_ns() {
	local pids
	pids=$(ns_pids "$1")
	[ -n "$pids" ] && kill -9 $pids 2>/dev/null
	return 0
}

# Load the lab's tables written by `up`: hosts.tsv and links.tsv.
#   hosts.tsv: host ns index mgmt_addr driver chip test_if test_addr link
#   links.tsv: link client server if client_addr server_addr driver nat
load_tables() {
	HOSTS=()
	declare -gA H_NS H_IDX H_MGMT H_DRV H_CHIP H_IF H_ADDR H_LINK
	local h ns i m d c f a l
	while read -r h ns i m d c f a l; do
		HOSTS+=("$h")
		H_NS[$h]=$ns H_IDX[$h]=$i H_MGMT[$h]=$m H_DRV[$h]=$d H_CHIP[$h]=$c
		H_IF[$h]=$f H_ADDR[$h]=$a H_LINK[$h]=$l
	done < "$STATE/hosts.tsv"
	LINKS=()
	declare -gA L_CLI L_SRV L_IF L_CADDR L_SADDR L_DRV L_NAT
	local n cl sv cif ca sa dr nat
	while read -r n cl sv cif ca sa dr nat; do
		LINKS+=("$n")
		L_CLI[$n]=$cl L_SRV[$n]=$sv L_IF[$n]=$cif L_CADDR[$n]=$ca
		L_SADDR[$n]=$sa L_DRV[$n]=$dr L_NAT[$n]=$nat
	done < "$STATE/links.tsv"
}

# The /proc/version text a host shows while running revision REV.
proc_version_text() {
	printf 'Linux version 6.1.0-labrat (simlab@labrat) (gcc (Debian 12.2.0-14) 12.2.0) #1 SMP PREEMPT_DYNAMIC %s Mon Nov 30 00:00:00 UTC 2026\n' "$1"
}

# rev_in_list REV LISTFILE: is REV one of the lines of LISTFILE?
rev_in_list() {
	grep -qxF -- "$1" "$2" 2>/dev/null
}

# rev_index REV LISTFILE: the 1-based line of REV in LISTFILE (prints
# nothing and fails when it is not there).
rev_index() {
	local n
	n=$(grep -nxF -m 1 -- "$1" "$2" 2>/dev/null) || return 1
	echo "${n%%:*}"
}

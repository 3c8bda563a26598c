#!/bin/bash
# Tests the bash completion of flightdeck-cli without a terminal: sources it
# under `set -eu` in this non-interactive shell and drives _flightdeck_cli with
# simulated COMP_WORDS/COMP_CWORD, against a temporary clouds.yaml,
# kubeconfig and a stand-in flightdeck-cli that lists two klusters.
# Not installed. Usage: test-completion.sh [path/to/flightdeck-cli.bash]
# Exit status: the number of failed cases.
set -eu
script=$(realpath "${1:-$(dirname "$0")/flightdeck-cli.bash}")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/xdg/openstack" "$T/home/.kube" "$T/bin" "$T/work/snapdir" "$T/work/other"
cat > "$T/xdg/openstack/clouds.yaml" <<'YAML'
# clouds of the test
clouds:
  prod:
    auth:
      auth_url: https://keystone.example.invalid/v3
      username: me
    region_name: eu-1
  "staging-2":   # quoted, with a comment
    auth: {auth_url: https://k2.invalid/v3}
    regions:
      - name: r1
other:
  notacloud: {}
YAML
cat > "$T/home/.kube/config" <<'YAML'
apiVersion: v1
clusters:
- cluster: {server: https://x}
  name: cluster-a
contexts:
- context:
    cluster: cluster-a
    user: u
  name: ctx-one
- name: ctx-two
  context: {cluster: cluster-a, user: u}
current-context: ctx-one
users:
- name: u
YAML
cat > "$T/bin/flightdeck-cli" <<'SH'
#!/bin/sh
echo "$*" >> "$FAKE_LOG"
printf '%-20s %-12s %-18s %s\n' NAME PHASE "POD NETWORK" NODES k1 Running 100.100.0.0/16 3 legacy Running 198.19.0.0/16 5
SH
chmod +x "$T/bin/flightdeck-cli"
export FAKE_LOG=$T/fake.log
export HOME=$T/home XDG_CONFIG_HOME=$T/xdg PATH=$T/bin:$PATH
unset OS_CLIENT_CONFIG_FILE OS_AUTH_URL OS_CLOUD KUBECONFIG || true
cd "$T/work"
source "$script"
complete -p flightdeck-cli

fails=0
t() {  # t "expected replies" word...
    local expected=$1; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=()
    _flightdeck_cli
    local got="${COMPREPLY[*]-}"
    if [[ $got == "$expected" ]]; then
        printf 'ok    %-55s -> %s\n' "$*|" "$got"
    else
        printf 'FAIL  %-55s -> %s (expected: %s)\n' "$*|" "$got" "$expected"; fails=$((fails + 1))
    fi
}
t "check"                          flightdeck-cli ch
t "check snapshot diff klusters routes repair audit credentials serve fleet" flightdeck-cli ""
t "--help --version"               flightdeck-cli --
t "--format"                       flightdeck-cli check --fo
t "--full-route-updates"           flightdeck-cli check --fu
t "--all --all-clouds --alertmanager --alertmanager-label --alertmanager-ca --alertmanager-auth --alertmanager-user --alertmanager-secret-file --alertmanager-cert --alertmanager-key" \
                                   flightdeck-cli check --al
t "--all --all-clouds"              flightdeck-cli check --all
t "--listen"                       flightdeck-cli serve --li
t "--prometheus --prometheus-ca --prometheus-auth --prometheus-user --prometheus-secret-file --prometheus-cert --prometheus-key" \
                                   flightdeck-cli fleet --pro
t "none basic bearer"              flightdeck-cli fleet --prometheus-auth ""
t "text json prometheus"           flightdeck-cli check --format ""
t "json"                           flightdeck-cli audit --format j
t "json"                           flightdeck-cli audit --format = j
t "text json"                      flightdeck-cli audit --format =
t "--format=json"                  flightdeck-cli audit --format=j
t "prod staging-2"                 flightdeck-cli check --cloud ""
t "staging-2"                      flightdeck-cli klusters --cloud s
t "prod"                           flightdeck-cli repair --cloud = p
t "--kluster"                      flightdeck-cli check --cloud prod --klu
t "set status delete"              flightdeck-cli credentials ""
t "set status delete"              flightdeck-cli credentials --cloud prod ""
t "--cloud"                        flightdeck-cli credentials set --cl
t "--help --help-all --cloud --alertmanager --alertmanager-user --prometheus --prometheus-user" \
                                   flightdeck-cli credentials set ""
t "none basic bearer"              flightdeck-cli check --alertmanager-auth ""
t "--silence --silence-minutes"    flightdeck-cli repair --sil
t "--yes"                          flightdeck-cli repair --kluster k1 --finding x --y
t "--out"                          flightdeck-cli snapshot --o
t "snapdir"                        flightdeck-cli check --snapshot sn
t "diff"                           flightdeck-cli di
t "snapdir"                        flightdeck-cli diff sn
t "snapdir"                        flightdeck-cli diff other sn
t "snapdir"                        flightdeck-cli diff --format json other --max-unhealthy 2 sn
t "--format --full-route-updates"  flightdeck-cli diff --f
t "text json"                      flightdeck-cli diff other snapdir --format ""
t "--route-limit --route-warning"  flightdeck-cli diff other snapdir --route-
t "--help --help-all --format --startup-timeout --token-expiry --route-limit --route-warning --max-unhealthy --full-route-updates --active-device --no-automation" \
                                   flightdeck-cli diff other snapdir ""
t "--protected"                    flightdeck-cli repair --prot
t "--nudge"                        flightdeck-cli repair --nu
t "--no-automation"                flightdeck-cli check --no-a
t "--explain"                      flightdeck-cli check --exp
t "--snapshot"                     flightdeck-cli routes --sn
t "--active-device"                flightdeck-cli routes --act
t "ctx-one ctx-two"                flightdeck-cli check --context ""
t "ctx-two"                        flightdeck-cli check --kubeconfig "$HOME/.kube/config" --context ctx-t
t "k1 legacy"                      flightdeck-cli check --cloud prod --kluster ""
t "legacy"                         flightdeck-cli repair --cloud prod --kluster l
t ""                               flightdeck-cli check --deadline ""
asked=$(wc -l < "$FAKE_LOG")
if [[ $asked == 1 && $(cat "$FAKE_LOG") == "klusters --deadline 3s --cloud prod" ]]; then
    echo "ok    the kluster names were asked for once: $(cat "$FAKE_LOG")"
else
    echo "FAIL  the kluster names were asked for $asked times: $(tr '\n' ';' < "$FAKE_LOG")"; fails=$((fails + 1))
fi
# A flightdeck-cli that hangs costs at most 3 seconds, and yields nothing.
printf '#!/bin/sh\nsleep 30\n' > "$T/bin/flightdeck-cli"
start=$SECONDS
t ""                               flightdeck-cli check --cloud staging-2 --kluster ""
if (( SECONDS - start <= 4 )); then
    echo "ok    a hanging flightdeck-cli klusters was given up after $(( SECONDS - start )) s"
else
    echo "FAIL  a hanging flightdeck-cli klusters took $(( SECONDS - start )) s"; fails=$((fails + 1))
fi
export OS_AUTH_URL=http://127.0.0.1:5000/v3
t "envvars"                        flightdeck-cli check --cloud e
unset OS_AUTH_URL
export OS_CLIENT_CONFIG_FILE=$T/alt.yaml
printf 'clouds:\n    alpha:\n        auth: {}\n    beta: {}\n' > "$T/alt.yaml"
t "alpha beta"                     flightdeck-cli check --cloud ""
echo "failures: $fails"
exit $fails

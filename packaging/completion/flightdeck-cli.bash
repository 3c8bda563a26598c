# bash completion for flightdeck-cli                          -*- shell-script -*-
#
# Installed as /usr/share/bash-completion/completions/flightdeck-cli (the
# bash-completion package loads it on first use), or sourced by hand:
#     source /path/to/flightdeck-cli.bash
#
# Completes the commands, each command's options, --format values, the
# credentials actions, the two snapshot folders of diff, cloud names (the
# top-level keys under `clouds:` of the clouds.yaml flightdeck-cli itself
# would read, plus "envvars" when OS_AUTH_URL is set), kubeconfig contexts, files and folders, and kluster names (from
# `flightdeck-cli klusters`, bounded by `timeout 3` and remembered per cloud
# for the shell session, an empty answer too: `unset
# _flightdeck_cli_kluster_cache_key` asks again; FLIGHTDECK_COMPLETE_KLUSTERS=0
# switches it off).
#
# Safe to source in non-interactive shells and under `set -u`; it needs
# neither bash-completion nor python.

# The clouds.yaml that flightdeck-cli reads: the first one that exists.
_flightdeck_cli_clouds_file()
{
    local f
    for f in "${OS_CLIENT_CONFIG_FILE-}" \
             "./clouds.yaml" \
             "${XDG_CONFIG_HOME:-${HOME-}/.config}/openstack/clouds.yaml" \
             "/etc/openstack/clouds.yaml"; do
        if [[ -n $f && -f $f && -r $f ]]; then
            printf '%s\n' "$f"
            return 0
        fi
    done
    return 1
}

# The cloud names: the keys one level below the top-level `clouds:` key.
_flightdeck_cli_cloud_names()
{
    local file
    if file=$(_flightdeck_cli_clouds_file); then
        awk '
            /^clouds:[[:space:]]*(#.*)?$/ { inside = 1; indent = -1; next }
            inside && /^[^[:space:]#]/     { inside = 0 }
            inside && /^[[:space:]]+[^[:space:]#-]/ {
                match($0, /^[[:space:]]+/)
                if (indent < 0) indent = RLENGTH
                if (RLENGTH != indent) next
                line = substr($0, RLENGTH + 1)
                if (line ~ /^"/)      { sub(/^"/, "", line); sub(/".*$/, "", line) }
                else if (line ~ /^\047/) { sub(/^\047/, "", line); sub(/\047.*$/, "", line) }
                else if (line ~ /:/)  { sub(/[[:space:]]*:.*$/, "", line) }
                else next
                if (line != "") print line
            }' "$file" 2>/dev/null
    fi
    if [[ -n ${OS_AUTH_URL-} ]]; then
        printf '%s\n' envvars
    fi
    return 0
}

# The contexts of the kubeconfig files given with --kubeconfig, else of
# $KUBECONFIG, else of ~/.kube/config.
_flightdeck_cli_contexts()
{
    local list=${1:-${KUBECONFIG:-${HOME-}/.kube/config}}
    local -a parts=() files=()
    local f
    IFS=: read -r -a parts <<< "$list"
    for f in "${parts[@]}"; do
        if [[ -f $f && -r $f ]]; then
            files+=("$f")
        fi
    done
    (( ${#files[@]} )) || return 0
    awk '
        /^contexts:/                    { inside = 1; next }
        inside && /^[^[:space:]#-]/     { inside = 0 }
        inside && /^[[:space:]]*-?[[:space:]]*name:[[:space:]]*/ {
            line = $0
            sub(/^[[:space:]]*-?[[:space:]]*name:[[:space:]]*/, "", line)
            sub(/[[:space:]]+#.*$/, "", line)
            gsub(/^["\047]|["\047]$/, "", line)
            if (line != "") print line
        }' "${files[@]}" 2>/dev/null
    return 0
}

# Kluster names of a cloud, through flightdeck-cli itself; at most 3 seconds,
# remembered per cloud for this shell (so it is not called in a subshell: it
# leaves the names in _flightdeck_cli_kluster_names).
_flightdeck_cli_klusters()
{
    local cloud=$1 cli=$2
    _flightdeck_cli_kluster_names=""
    if [[ ${FLIGHTDECK_COMPLETE_KLUSTERS-1} == 0 ]]; then
        return 0
    fi
    type -P timeout >/dev/null 2>&1 || return 0
    type -P "$cli" >/dev/null 2>&1 || return 0
    if [[ ${_flightdeck_cli_kluster_cache_key-} != "$cloud" ]]; then
        local -a args=(klusters --deadline 3s)
        if [[ -n $cloud ]]; then
            args+=(--cloud "$cloud")
        fi
        _flightdeck_cli_kluster_cache=$(timeout 3 "$cli" "${args[@]}" </dev/null 2>/dev/null \
            | awk 'NR > 1 && NF { print $1 }')
        _flightdeck_cli_kluster_cache_key=$cloud
    fi
    _flightdeck_cli_kluster_names=${_flightdeck_cli_kluster_cache-}
    return 0
}

# COMPREPLY from a newline-separated list of words, filtered by prefix
# (read line by line: no word splitting, no globbing).
_flightdeck_cli_reply()
{
    local words=$1 cur=$2 prefix=${3-} w
    COMPREPLY=()
    while IFS= read -r w; do
        if [[ -n $w && $w == "$cur"* ]]; then
            COMPREPLY+=("$prefix$w")
        fi
    done <<< "$words"
    return 0
}

_flightdeck_cli()
{
    local cword=${COMP_CWORD:-0}
    local cur=${COMP_WORDS[cword]-} prev="" prefix=""
    if (( cword > 0 )); then
        prev=${COMP_WORDS[cword-1]-}
    fi

    # --option=value: bash splits it at "=" (COMP_WORDBREAKS) into
    # "--option" "=" "value"; without "=" in COMP_WORDBREAKS it stays one word.
    if [[ $cur == "=" && $prev == --* ]]; then
        cur=""
    elif [[ $prev == "=" ]] && (( cword > 1 )); then
        prev=${COMP_WORDS[cword-2]-}
    elif [[ $cur == --*=* ]]; then
        prev=${cur%%=*}
        cur=${cur#*=}
        prefix="$prev="
    fi

    # The command, the cloud and the kubeconfig given so far; the values of
    # options are skipped.
    local command="" cloud=${OS_CLOUD-} kubeconfig="" action="" folders=0 i word value
    for (( i = 1; i < cword; i++ )); do
        word=${COMP_WORDS[i]-}
        case $word in
            --cloud|--kubeconfig|--kluster|--context|--deadline|--policy|--snapshot|--format|--out|--finding|\
            --startup-timeout|--token-expiry|--route-limit|--route-warning|--max-unhealthy|\
            --concurrency|--node-series|--shard|--listen|--refresh|--config|--web.config.file|\
            --alertmanager|--alertmanager-label|--alertmanager-ca|--alertmanager-auth|--alertmanager-user|\
            --alertmanager-secret-file|--alertmanager-cert|--alertmanager-key|--silence-minutes|\
            --prometheus|--prometheus-ca|--prometheus-auth|--prometheus-user|--prometheus-secret-file|\
            --prometheus-cert|--prometheus-key)
                if [[ ${COMP_WORDS[i+1]-} == "=" ]]; then
                    (( i++ ))
                fi
                if (( i + 1 < cword )); then
                    (( i++ ))
                    value=${COMP_WORDS[i]-}
                    case $word in
                        --cloud) cloud=$value ;;
                        --kubeconfig) kubeconfig=$value ;;
                    esac
                fi
                ;;
            --cloud=*) cloud=${word#--cloud=} ;;
            --kubeconfig=*) kubeconfig=${word#--kubeconfig=} ;;
            -*) ;;
            *)
                if [[ -z $command ]]; then
                    command=$word
                elif [[ $command == credentials && -z $action ]]; then
                    action=$word
                elif [[ $command == diff ]]; then
                    folders=$(( folders + 1 ))
                fi
                ;;
        esac
    done

    local commands="check snapshot diff klusters routes repair audit credentials serve fleet"
    if [[ -z $command ]]; then
        if [[ $cur == -* ]]; then
            _flightdeck_cli_reply $'-h\n--help\n-v\n--version' "$cur"
        else
            _flightdeck_cli_reply "${commands// /$'\n'}" "$cur"
        fi
        return 0
    fi

    # Values of the option before the cursor.
    case $prev in
        --format)
            if [[ $command == check ]]; then
                _flightdeck_cli_reply $'text\njson\nprometheus' "$cur" "$prefix"
            else
                _flightdeck_cli_reply $'text\njson' "$cur" "$prefix"
            fi
            return 0 ;;
        --alertmanager-auth|--prometheus-auth)
            _flightdeck_cli_reply $'none\nbasic\nbearer' "$cur" "$prefix"
            return 0 ;;
        --policy|--config|--web.config.file|--alertmanager-ca|--alertmanager-secret-file|--alertmanager-cert|--alertmanager-key|\
        --prometheus-ca|--prometheus-secret-file|--prometheus-cert|--prometheus-key)
            compopt -o filenames 2>/dev/null || true
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            return 0 ;;
        --cloud)
            _flightdeck_cli_reply "$(_flightdeck_cli_cloud_names)" "$cur" "$prefix"
            return 0 ;;
        --kluster)
            if [[ $command != credentials ]]; then
                _flightdeck_cli_klusters "$cloud" "${COMP_WORDS[0]-flightdeck-cli}"
                _flightdeck_cli_reply "$_flightdeck_cli_kluster_names" "$cur" "$prefix"
            fi
            return 0 ;;
        --context)
            _flightdeck_cli_reply "$(_flightdeck_cli_contexts "$kubeconfig")" "$cur" "$prefix"
            return 0 ;;
        --snapshot|--out)
            compopt -o filenames 2>/dev/null || true
            mapfile -t COMPREPLY < <(compgen -d -- "$cur")
            return 0 ;;
        --kubeconfig)
            compopt -o filenames 2>/dev/null || true
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            return 0 ;;
        --finding|--deadline|--startup-timeout|--token-expiry|--route-limit|--route-warning|--max-unhealthy|\
        --concurrency|--node-series|--shard|--listen|--refresh|--alertmanager|--alertmanager-label|\
        --alertmanager-user|--silence-minutes)
            COMPREPLY=()
            return 0 ;;
    esac

    local cloudopts="--cloud --kubeconfig --context --deadline --policy"
    local diagopts="--startup-timeout --token-expiry --route-limit --route-warning --max-unhealthy --full-route-updates --active-device --no-automation"
    local amopts="--alertmanager --alertmanager-label --alertmanager-ca --alertmanager-auth --alertmanager-user --alertmanager-secret-file --alertmanager-cert --alertmanager-key"
    local opts="" words=""
    case $command in
        check)       opts="--snapshot --format --record --explain --kluster --all --all-clouds --verbose --concurrency --node-series $cloudopts $diagopts $amopts" ;;
        serve)       opts="--config --listen --web.config.file --hash-password --cloud --all-clouds --refresh --record --concurrency --node-series --shard $diagopts" ;;
        snapshot)    opts="--out --route-limit --kluster $cloudopts" ;;
        diff)        opts="--format $diagopts"
                     # SNAPSHOT_A and SNAPSHOT_B: folders, until both are given.
                     if [[ $cur != -* ]] && (( folders < 2 )); then
                         compopt -o filenames 2>/dev/null || true
                         mapfile -t COMPREPLY < <(compgen -d -- "$cur")
                         return 0
                     fi ;;
        klusters)    opts="$cloudopts" ;;
        routes)      opts="--snapshot --format --kluster $cloudopts $diagopts" ;;
        repair)      opts="--finding --all-routes --yes --dry-run --verify --override --router --protected --nudge --silence --silence-minutes --kluster $cloudopts $diagopts $amopts" ;;
        audit)       opts="--format" ;;
        fleet)       opts="--prometheus --prometheus-ca --prometheus-auth --prometheus-user --prometheus-secret-file --prometheus-cert --prometheus-key --format" ;;
        credentials) opts="--cloud --alertmanager --alertmanager-user --prometheus --prometheus-user"
                     if [[ -z $action ]]; then words="set status delete"; fi ;;
        *)           return 0 ;;
    esac
    opts="--help --help-all $opts"

    if [[ $cur == -* || -z $words ]]; then
        _flightdeck_cli_reply "${opts// /$'\n'}" "$cur"
    else
        _flightdeck_cli_reply "${words// /$'\n'}" "$cur"
    fi
    return 0
}

complete -F _flightdeck_cli flightdeck-cli

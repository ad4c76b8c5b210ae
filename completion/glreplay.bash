# bash completion for glreplay(1): verbs, each verb's options, .glcap files for the capture
# argument, and for `run`/`capture` the program and its own completion after `--`.
# Installed as share/bash-completion/completions/glreplay (loaded on demand by bash-completion).

_glreplay()
{
    local cur prev words cword
    _init_completion || return

    local verbs="run capture info replay state model debug pixel dap profile report help"
    if [[ $cword -eq 1 ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$verbs --help --version" -- "$cur")
        return
    fi

    local verb=${words[1]} i
    # After `--`, the words are a program and its arguments: complete them as a command line.
    for ((i = 2; i < cword; i++)); do
        if [[ ${words[i]} == -- ]]; then
            _command_offset $((i + 1))
            return
        fi
    done

    local opts
    case $verb in
        run) opts="--socket --frame --count --out --help --" ;;
        capture) opts="--frame --count --out --help --" ;;
        info) opts="--json --top --help" ;;
        replay) opts="--loop --verify --png --benchmark --gl-errors --help" ;;
        state) opts="--event --json --context --help" ;;
        model) opts="--compare --png --json --benchmark --trace-hash --no-timing --threads --timeout --help" ;;
        debug) opts="--break --hit --condition --draw --pixel --fragment --target --stage --corner --vertex --no-timing --timeout --json --list --heatmap --out --component --min --max --help" ;;
        pixel) opts="--at --target --json --no-driver --no-cache --help" ;;
        dap) opts="--socket --stdio --connect --pid --help" ;;
        profile) opts="--out --counters --counter-mask --pc-sampling --pc-mode --seed --annotate --edges
                       --edges-exact --dot --trace-buffers --trace-out --plot --top --timeout --json --help" ;;
        report) opts="--out --profile --no-model --thumb-size --help" ;;
        *) return ;;
    esac

    # Option values.
    case $prev in
        --png)
            _filedir -d
            return ;;
        --out)
            if [[ $verb == capture ]]; then _filedir glcap; elif [[ $verb == report ]]; then _filedir -d; else _filedir json; fi
            return ;;
        --socket)
            _filedir sock
            return ;;
        --plot)
            _filedir svg
            return ;;
        --dot)
            _filedir dot
            return ;;
        --trace-out)
            _filedir '@(gmtb|jsonl)'
            return ;;
        --break)
            # A shader file on disk (the user adds :LINE).
            _filedir
            compopt -o nospace
            return ;;
        --pc-mode)
            mapfile -t COMPREPLY < <(compgen -W "round-robin all" -- "$cur")
            return ;;
        --trace-buffers)
            mapfile -t COMPREPLY < <(compgen -W "flow mem tex reg: all" -- "$cur")
            return ;;
        --frame | --count | --top | --loop | --event | --context | --hit | --condition | --draw | \
            --pixel | --counter-mask | --pc-sampling | --seed | --edges | --threads)
            return ;;
    esac

    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
    elif [[ $verb != run && $verb != capture ]]; then
        _filedir glcap
    fi
} &&
    complete -F _glreplay glreplay

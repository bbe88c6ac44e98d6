# SPDX-License-Identifier: MIT
# bash completion for mcpuctl (installed to /usr/share/bash-completion/completions/mcpuctl).
# Completes commands and options, and for `mcpuctl call` the tool names and
# their parameter names, asked from the running mcpud.

_mcpuctl_bus_args() {
  local i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "${COMP_WORDS[i]}" in
      --bus=*) echo "${COMP_WORDS[i]}" ;;
      --bus) echo "--bus=${COMP_WORDS[i + 1]}" ;;
    esac
  done
}

_mcpuctl() {
  local cur prev command i
  COMPREPLY=()
  cur="${COMP_WORDS[COMP_CWORD]}"
  prev="${COMP_WORDS[COMP_CWORD - 1]}"
  local commands="status tools pins call ask watch bridges clients sessions reload estop approvals approve deny audit discover"
  local options="--json --bus --help"

  if [[ "$prev" == "--bus" ]]; then
    COMPREPLY=($(compgen -W "system session" -- "$cur"))
    return
  fi
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "${COMP_WORDS[i]}" in
      -*) ;;
      system | session) ;;
      *) command="${COMP_WORDS[i]}"; break ;;
    esac
  done

  if [[ -z "$command" ]]; then
    COMPREPLY=($(compgen -W "$commands $options" -- "$cur"))
    return
  fi
  case "$command" in
    tools) COMPREPLY=($(compgen -W "--all $options" -- "$cur")) ;;
    watch) COMPREPLY=($(compgen -W "--count $options" -- "$cur")) ;;
    ask | discover) COMPREPLY=($(compgen -W "--timeout $options" -- "$cur")) ;;
    call)
      local table tool
      table=$(mcpuctl $(_mcpuctl_bus_args) tools --all 2>/dev/null) || return
      # The tool is the first word after "call" that is not an option.
      for ((i = i + 1; i < COMP_CWORD; i++)); do
        [[ "${COMP_WORDS[i]}" != -* ]] && { tool="${COMP_WORDS[i]}"; break; }
      done
      if [[ -z "$tool" ]]; then
        COMPREPLY=($(compgen -W "$(awk 'NR > 1 { print $1 }' <<<"$table")" -- "$cur"))
      else
        # Parameters are the NAME:TYPE words (optional ones in brackets) of the tool's row.
        local params
        params=$(awk -v t="$tool" '$1 == t { for (i = 2; i <= NF; i++) if ($i ~ /^\[?[A-Za-z_][A-Za-z0-9_]*:[^ ]+$/) {
          p = $i; sub(/^\[/, "", p); sub(/:.*/, "", p); printf "%s= ", p } }' <<<"$table")
        compopt -o nospace 2>/dev/null
        COMPREPLY=($(compgen -W "$params" -- "$cur"))
      fi
      ;;
    *) COMPREPLY=($(compgen -W "$options" -- "$cur")) ;;
  esac
}
complete -F _mcpuctl mcpuctl

# bash completion for devplan(1); installed as
# PREFIX/share/bash-completion/completions/devplan, where bash-completion
# loads it the first time devplan is completed (or `source` it).
#
# Completes the options of USAGE.md's command-line table (tests/man-test
# checks that every one is offered), a script after -x, a command name
# after -c (from `devplan -c help` of the devplan being completed), two
# .json files after --diff-placement, and otherwise a module: .relay files
# and folders.

_devplan_commands()
{
	local devplan=${COMP_WORDS[0]}
	command -v "$devplan" >/dev/null 2>&1 || devplan=devplan
	"$devplan" -n -q -b -c help 2>/dev/null | awk '/^  [a-z]/ { print $1 }'
}

# _devplan_files [GLOB]: the files matching GLOB and the folders, or every
# file, that the word being completed begins
_devplan_files()
{
	local cur=${COMP_WORDS[COMP_CWORD]} IFS=$'\n'
	compopt -o filenames 2>/dev/null
	if [ $# -eq 0 ]; then
		COMPREPLY=($(compgen -f -- "$cur"))
	else
		COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X "!$1" -- "$cur"))
	fi
}

_devplan()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=
	local options='-b -c -n -q -x -h --help --version --diff-placement'
	local i
	COMPREPLY=()
	[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
	case $prev in
	-x)
		_devplan_files
		return
		;;
	-c)
		COMPREPLY=($(compgen -W "$(_devplan_commands)" -- "$cur"))
		return
		;;
	esac
	for ((i = 1; i < COMP_CWORD; i++)); do
		if [ "${COMP_WORDS[i]}" = --diff-placement ]; then
			_devplan_files '*.json'
			return
		fi
	done
	case $cur in
	-*) COMPREPLY=($(compgen -W "$options" -- "$cur")) ;;
	*) _devplan_files '*.relay' ;;
	esac
}
complete -F _devplan devplan

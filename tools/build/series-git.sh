# SPDX-License-Identifier: GPL-2.0
# What tools/build/qemu-git and tools/build/kernel-git share: a git tree
# whose first commit is a pinned upstream tarball, tagged "upstream", and
# `git am` of a patch series on it.  Sourced after lib.sh, not run.
#
# The commits are made with fixed identities and dates, so the same
# series gives the same commit ids on every machine.

# series_git_args TOOL DEFAULT_DIR ARG...: [--files-of] [DIR] into $sparse
# and $dir
series_git_args() {
	local usage="usage: $1 [--files-of] [DIR]" default=$2
	dir= sparse=
	shift 2
	while [ $# -gt 0 ]; do
		case $1 in
		--files-of) sparse=1 ;;
		-*) die "unknown option '$1' ($usage)" ;;
		*) [ -z "$dir" ] || die "one directory only ($usage)"; dir=$1 ;;
		esac
		shift
	done
	dir=${dir:-$default}
	command -v git >/dev/null || die "git is not installed (make deps)"
}

# series_git_upstream NAME BRANCH AUTHOR EMAIL MESSAGE PATCH...: in a new
# temporary directory ($tmp, removed on exit), a git tree of NAME's pinned
# tarball (or LEON3_SRC_<NAME>) committed as MESSAGE by AUTHOR <EMAIL> on
# BRANCH and tagged upstream; the current directory is its work tree.
# With $sparse, only the files the PATCHes change, as they are upstream,
# and the .gitattributes files: enough to apply the series and export it
# as the whole tree does.
series_git_upstream() {
	local name=$1 branch=$2 author=$3 email=$4 message=$5
	shift 5
	export GIT_AUTHOR_NAME="$author" GIT_AUTHOR_EMAIL="$email"
	export GIT_COMMITTER_NAME="LEON3 PMU developers" GIT_COMMITTER_EMAIL="leon3-pmu@example.org"
	export GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z"
	export GIT_CONFIG_NOSYSTEM=1 HOME=${HOME:-/tmp}

	mkdir -p "$(dirname "$dir")"	# build/, in a fresh clone
	tmp=$(mktemp -d "$(dirname "$dir")/.$name-git.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	msg "unpacking $name $(lock_version "$name")${sparse:+ (the files the series touches)}"
	if [ -n "$sparse" ] && [ -z "$(source_override "$name")" ]; then
		# The files the patches name, as they are upstream (new files are not there)
		fetch "$name"
		awk '/^--- \/dev\/null/ { getline; sub(/^\+\+\+ b\//, ""); new[$0] = 1; next }
			/^--- a\// { old[substr($0, 7)] = 1 }
			END { for (f in old) if (!(f in new)) print "*/" f }' "$@" | sort >"$tmp/files"
		# and the tree's .gitattributes: its diff drivers name the
		# functions in the hunk headers that git format-patch writes
		echo '*/.gitattributes' >>"$tmp/files"
		mkdir "$tmp/src"
		tar -xf "$DOWNLOADS/$(lock_files "$name" | grep '\.orig\.tar\.')" -C "$tmp/src" \
			--strip-components=1 --wildcards --files-from="$tmp/files"
	else
		unpack_orig "$name" "$tmp/src"
	fi

	cd "$tmp/src"
	git init -q -b "$branch"
	git config user.name "$GIT_COMMITTER_NAME"
	git config user.email "$GIT_COMMITTER_EMAIL"
	git config core.autocrlf false
	msg "committing the upstream tree"
	git add -A -f .
	git commit -q --no-verify -m "$message"
	git tag upstream
}

# series_git_am PATCH...: git am each PATCH on the current branch, or die
# naming the first that does not apply
series_git_am() {
	local n=0 p
	for p in "$@"; do
		n=$((n + 1))
		if ! git am -q --committer-date-is-author-date "$p" >"$tmp/am.log" 2>&1; then
			cat "$tmp/am.log" >&2
			die "$(basename "$p") does not apply (patch $n of $#)"
		fi
	done
}

# series_git_done: the tree made, from $tmp to $dir
series_git_done() {
	cd "$TOP"
	mv "$tmp/src" "$dir"
}

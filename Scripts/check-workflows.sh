#!/usr/bin/env bash
# Lints what runs in CI: actionlint and zizmor over action.yml, the repository's workflows and
# the workflows `sitegen init` writes (for a zone without daylight saving and one in each
# hemisphere with it), hadolint over the Dockerfile, shellcheck over the scripts the action
# and the release run. Each reports nothing; what is ignored is justified in the linter's
# own settings file (.hadolint.yaml).
#   Scripts/check-workflows.sh SITEGEN
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
sitegen=$(realpath "${1:-.build/debug/sitegen}")
venv=.build/test-venv/bin
export PATH="$PWD/$venv:$PATH"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
checks=0
lint() {
    local what=$1
    shift
    checks=$((checks + 1))
    if output=$("$@" 2>&1); then
        echo "ok   $what"
    else
        failures=$((failures + 1))
        echo "FAIL $what"
        printf '%s\n' "$output" | sed 's/^/     | /' | tail -40
    fi
}

workflows=(action.yml .github/workflows/*.yml)
for zone in Asia/Hong_Kong America/New_York Australia/Sydney; do
    site="$work/${zone//\//-}"
    "$sitegen" init "$site" --timezone "$zone" > /dev/null
    workflows+=("$site/.github/workflows/publish.yml")
done

for workflow in "${workflows[@]}"; do
    label=${workflow#"$work/"}
    [[ $label == action.yml ]] || lint "actionlint $label" actionlint -shellcheck="$venv/shellcheck" "$workflow"
    # Offline: the audits that would ask GitHub's API (a tag's commit) are left out.
    lint "zizmor $label" zizmor --offline --no-progress --min-severity informational "$workflow"
done
lint "hadolint Dockerfile" hadolint Dockerfile
lint "shellcheck of the scripts the action and the release run" \
    shellcheck -x Scripts/github-action.sh Scripts/build-release.sh Scripts/build-info.sh Scripts/dist.sh Scripts/check-dist.sh \
    Scripts/check-action.sh Scripts/check-workflows.sh Scripts/install-deps.sh Scripts/release-names.sh

echo "workflows: $((checks - failures)) passed, $failures failed"
((failures == 0))
